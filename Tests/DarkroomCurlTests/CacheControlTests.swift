import Foundation
import Testing

@testable import DarkroomCurl

// MARK: - Header parsing

@Suite("Cache-Control and response heads are parsed as a shared cache reads them")
struct CacheControlTests {
    @Test("max-age, s-maxage, no-cache and no-store")
    func cacheControl() {
        #expect(CacheControl(parsing: "max-age=600").maxAge == 600)
        #expect(CacheControl(parsing: "public, max-age=600, s-maxage=3600").maxAge == 3600)
        #expect(CacheControl(parsing: "no-cache, max-age=600").maxAge == 0)
        #expect(CacheControl(parsing: "No-Store").noStore)
        #expect(CacheControl(parsing: "max-age=\"30\"").maxAge == 30)
        #expect(CacheControl(parsing: "max-age=soon").maxAge == nil)
        #expect(CacheControl(parsing: nil) == CacheControl(parsing: ""))
    }

    @Test("the last response of a header block wins; fields are case-insensitive and repeated ones joined")
    func head() {
        let head = HTTPResponseHead(parsing: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\n"
            + "Content-Type: text/html\r\nVary: Accept\r\nvary: Origin\r\n\r\n")
        #expect(head.status == 404)
        #expect(head.statusDescription == "404 Not Found")
        #expect(head["CONTENT-TYPE"] == "text/html")
        #expect(head["vary"] == "Accept, Origin")
        #expect(HTTPResponseHead(parsing: "HTTP/2 503\r\n\r\n").statusDescription == "503 Service Unavailable")
    }

    @Test("Retry-After as seconds or an HTTP date")
    func retryAfter() {
        #expect(RetryAfter.seconds("120") == 120)
        #expect(RetryAfter.seconds("soon") == nil)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0)
        let now = Date(timeIntervalSince1970: 1_445_412_470)  // 10 s before that date
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == 10)
    }
}

// MARK: - Private addresses

@Suite("The private-network rule classifies IPv4 and IPv6 addresses")
struct PrivateAddressTests {
    @Test("loopback, link-local, private, unspecified and CGNAT are refused; public ones pass")
    func classification() {
        #expect(TransferOutcome.privateAddressKind("127.0.0.1") == "a loopback")
        #expect(TransferOutcome.privateAddressKind("127.255.0.9") == "a loopback")
        #expect(TransferOutcome.privateAddressKind("::1") == "a loopback")
        #expect(TransferOutcome.privateAddressKind("::ffff:127.0.0.1") == "a loopback")
        #expect(TransferOutcome.privateAddressKind("169.254.169.254") == "a link-local")
        #expect(TransferOutcome.privateAddressKind("fe80::1") == "a link-local")
        #expect(TransferOutcome.privateAddressKind("10.1.2.3") == "a private")
        #expect(TransferOutcome.privateAddressKind("172.16.0.1") == "a private")
        #expect(TransferOutcome.privateAddressKind("172.31.255.255") == "a private")
        #expect(TransferOutcome.privateAddressKind("192.168.1.1") == "a private")
        #expect(TransferOutcome.privateAddressKind("fd00::1") == "a private")
        #expect(TransferOutcome.privateAddressKind("0.0.0.0") == "an unspecified")
        #expect(TransferOutcome.privateAddressKind("::") == "an unspecified")
        #expect(TransferOutcome.privateAddressKind("100.64.0.1") == "a shared (carrier-grade NAT)")
        #expect(TransferOutcome.privateAddressKind("100.127.255.255") == "a shared (carrier-grade NAT)")
        for address in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "172.15.0.1", "2001:4860:4860::8888", "not-an-ip"] {
            #expect(TransferOutcome.privateAddressKind(address) == nil, "\(address)")
        }
    }
}
