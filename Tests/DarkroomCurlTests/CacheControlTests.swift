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

    /// Classification only: no test sends traffic to any of these addresses.
    @Test("multicast, reserved, benchmarking, documentation and IPv4-translating ranges are refused, mapped forms too")
    func moreRanges() {
        let multicast = "a multicast"
        let reserved = "a reserved (benchmarking, documentation or future use)"
        let translated = "an IPv4-translating (NAT64, 6to4 or Teredo)"
        let table: [(String, String?)] = [
            ("224.0.0.1", multicast), ("239.255.255.250", multicast), ("ff02::1", multicast), ("ff05::2", multicast),
            ("240.0.0.1", reserved), ("255.255.255.255", reserved), ("198.18.0.1", reserved), ("198.19.255.255", reserved),
            ("192.0.0.8", reserved), ("192.0.2.1", reserved), ("198.51.100.7", reserved), ("203.0.113.9", reserved),
            ("192.88.99.1", reserved), ("2001:db8::1", reserved), ("100::1", reserved),
            ("64:ff9b::a00:1", translated), ("64:ff9b::808:808", translated), ("64:ff9b:1::1", translated),
            ("2002:a00:1::1", translated), ("2002:808:808::1", translated), ("2001::1", translated),
            ("fec0::1", "a private"),
            // IPv4-mapped and -compatible forms of every refused IPv4 range.
            ("::ffff:224.0.0.1", multicast), ("::ffff:198.18.0.1", reserved), ("::ffff:100.64.0.1", "a shared (carrier-grade NAT)"),
            ("::ffff:169.254.169.254", "a link-local"), ("::ffff:10.0.0.1", "a private"), ("::240.0.0.1", reserved),
            ("::ffff:0.0.0.0", "an unspecified"),
            // Neighbours that stay public.
            ("198.17.255.255", nil), ("198.20.0.0", nil), ("223.255.255.255", nil), ("192.0.1.1", nil), ("192.0.3.1", nil),
            ("203.0.114.1", nil), ("2001:db9::1", nil), ("2001:1::1", nil), ("2003::1", nil), ("64:ff9c::1", nil),
            ("::ffff:8.8.8.8", nil),
        ]
        for (address, kind) in table {
            #expect(TransferOutcome.privateAddressKind(address) == kind, "\(address)")
        }
    }
}
