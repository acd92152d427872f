@testable import DarkroomServer
import Testing

// MARK: - Request ids

@Suite("Request ids: a valid client id is kept; new ones are 32 hex digits and never repeat")
struct RequestIDTests {
    @Test("a valid X-Request-ID is kept; an invalid or missing one is replaced")
    func keepsValidIDs() {
        #expect(RequestID.resolve("trace-42.a:b_c") == "trace-42.a:b_c")
        for invalid in [nil, "", "a b", "x\n", String(repeating: "a", count: 129)] {
            let made = RequestID.resolve(invalid)
            #expect(made != invalid && made.count == 32 && made.allSatisfy(\.isHexDigit), "\(made)")
        }
    }

    @Test("a new id is its two 64-bit halves in 16 lowercase hexadecimal digits each, zero-padded")
    func hexDigits() {
        #expect(RequestID.hex(0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210) == "0123456789abcdeffedcba9876543210")
        #expect(RequestID.hex(0, 1) == "00000000000000000000000000000001")
        #expect(RequestID.hex(.max, 0xA) == "ffffffffffffffff000000000000000a")
    }

    @Test("100,000 new ids from four tasks at once are all different and share the process prefix")
    func newIDsAreUnique() async {
        let made = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<25_000).map { _ in RequestID.resolve(nil) } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(made).count == made.count)
        #expect(Set(made.map { $0.prefix(16) }).count == 1)
        #expect(made.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }
}
