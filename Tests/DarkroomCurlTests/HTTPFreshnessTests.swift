import Testing

@testable import DarkroomCurl

@Suite("an origin's answer is fresh as RFC 9111 reads it for a shared cache")
struct HTTPFreshnessTests {
    static let now = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("s-maxage over max-age, no-cache is 0, Age is taken off, private and no-store are not kept")
    func cacheControl() {
        #expect(HTTPFreshness(cacheControl: "public, max-age=600, s-maxage=60", expires: nil, date: nil, age: nil).maxAge == 60)
        #expect(HTTPFreshness(cacheControl: "max-age=600", expires: nil, date: nil, age: "100").maxAge == 500)
        #expect(HTTPFreshness(cacheControl: "max-age=60", expires: nil, date: nil, age: "100").maxAge == 0)
        #expect(HTTPFreshness(cacheControl: "no-cache", expires: nil, date: nil, age: nil).maxAge == 0)
        #expect(HTTPFreshness(cacheControl: "private, max-age=60", expires: nil, date: nil, age: nil).noStore)
        #expect(HTTPFreshness(cacheControl: "no-store", expires: nil, date: nil, age: nil).noStore)
        #expect(HTTPFreshness(cacheControl: nil, expires: nil, date: nil, age: "5").maxAge == nil)
        // max-age wins over Expires.
        #expect(HTTPFreshness(cacheControl: "max-age=5", expires: "Sun, 06 Nov 1994 09:49:37 GMT", date: nil, age: nil, now: Self.now).maxAge == 5)
    }

    @Test("Expires minus the origin's Date; an invalid Expires is already expired")
    func expires() {
        let later = "Sun, 06 Nov 1994 08:59:37 GMT"
        #expect(HTTPFreshness(cacheControl: nil, expires: later, date: "Sun, 06 Nov 1994 08:49:37 GMT", age: nil).maxAge == 600)
        #expect(HTTPFreshness(cacheControl: nil, expires: later, date: nil, age: nil, now: Self.now).maxAge == 600)
        #expect(HTTPFreshness(cacheControl: nil, expires: "0", date: nil, age: nil, now: Self.now).maxAge == 0)
        #expect(HTTPFreshness(cacheControl: nil, expires: "Sat, 05 Nov 1994 08:49:37 GMT", date: nil, age: nil, now: Self.now).maxAge == 0)
    }

    @Test("IMF-fixdate, RFC 850 and asctime dates; anything else is nil", arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0 as Double?),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("Sun, 06 Nov 1994 25:49:37 GMT", nil),
        ("yesterday", nil),
        ("", nil),
    ])
    func dates(text: String, seconds: Double?) {
        #expect(HTTPFreshness.parseHTTPDate(text) == seconds)
    }
}
