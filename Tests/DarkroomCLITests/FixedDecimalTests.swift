@testable import DarkroomCLI
import Foundation
import Testing

@Suite("FixedDecimal prints numbers as printf's %.Nf does")
struct FixedDecimalTests {
    @Test("examples: padding, rounding, zero decimals, negatives")
    func examples() {
        #expect(FixedDecimal.text(0.0524, decimals: 3) == "0.052")
        #expect(FixedDecimal.text(0.0526, decimals: 3) == "0.053")
        #expect(FixedDecimal.text(134.56, decimals: 1) == "134.6")
        #expect(FixedDecimal.text(7, decimals: 3) == "7.000")
        #expect(FixedDecimal.text(0, decimals: 1) == "0.0")
        #expect(FixedDecimal.text(2.5001, decimals: 0) == "3")
        #expect(FixedDecimal.text(-1.25, decimals: 1) == "-1.3")
        #expect(FixedDecimal.text(-0.0001, decimals: 2) == "0.00")
        #expect(FixedDecimal.text(1.0009, decimals: 3) == "1.001")
        #expect(FixedDecimal.text(9.9999, decimals: 3) == "10.000")
    }

    @Test("agrees with String(format:) away from exact halves", arguments: [0, 1, 3])
    func agreesWithPrintf(decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        for step in 0..<5_000 {
            let value = Double(step) * 0.013_7 + Double(step % 7) * 0.000_31
            let fraction = (value * scale).truncatingRemainder(dividingBy: 1)
            if abs(fraction - 0.5) < 1e-6 { continue }  // printf rounds the exact binary value
            #expect(FixedDecimal.text(value, decimals: decimals) == String(format: "%.\(decimals)f", value))
        }
    }

    @Test("values that are not finite print as Swift prints them")
    func notFinite() {
        #expect(FixedDecimal.text(.infinity, decimals: 1) == "inf")
        #expect(FixedDecimal.text(.nan, decimals: 3) == "nan")
        #expect(FixedDecimal.text(1e300, decimals: 1) == "1e+300")
    }
}
