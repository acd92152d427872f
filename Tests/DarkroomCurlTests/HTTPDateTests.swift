@testable import DarkroomCurl
import Foundation
import Testing

// MARK: - HTTP dates

@Suite("HTTP dates parse in all three RFC 9110 forms, as Foundation reads them")
struct HTTPDateTests {
    @Test("IMF-fixdate, RFC 850 and asctime name the same instant")
    func threeForms() {
        #expect(HTTPDate.secondsSince1970("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.secondsSince1970("Sunday, 06-Nov-94 08:49:37 GMT", now: 1.7e9) == 784_111_777)
        #expect(HTTPDate.secondsSince1970("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.secondsSince1970("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
    }

    @Test("every day of 1968–2104 matches Foundation's DateFormatter")
    func matchesFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        // Every day, at a random time of day: leap years, century rules, month ends.
        for day in stride(from: -730, to: 49_700, by: 1) {
            let seconds = Int64(day) * 86_400 + Int64.random(in: 0..<86_400, using: &generator)
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(HTTPDate.secondsSince1970(text) == seconds, "\(text)")
        }
    }

    @Test("an RFC 850 two-digit year more than 50 years ahead is in the century before")
    func twoDigitYears() {
        let in2026 = 1_795_000_000.0
        #expect(HTTPDate.secondsSince1970("Tuesday, 01-Jan-75 00:00:00 GMT", now: in2026) == 3_313_526_400)  // 2075
        #expect(HTTPDate.secondsSince1970("Saturday, 01-Jan-77 00:00:00 GMT", now: in2026) == 220_924_800)  // 1977
    }

    @Test("malformed dates are refused", arguments: [
        "", "soon", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Now 1994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49 1994", "Sun Nov 32 08:49:37 1994", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT extra", "Sun, 00 Nov 1994 08:49:37 GMT",
    ])
    func malformed(text: String) {
        #expect(HTTPDate.secondsSince1970(text) == nil)
    }
}
