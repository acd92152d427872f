import DarkroomCore
import Testing

// MARK: - FailOn

@Suite("fail-on levels stop on what sharp's do, and warning handlers never change equality")
struct FailOnTests {
    @Test("each level stops on its damage and every damage of the levels below it")
    func matrix() {
        let stops: [FailOn: [DecodeDamage]] = [
            .none: [], .truncated: [.truncated], .error: [.truncated, .error], .warning: [.truncated, .error, .warning],
        ]
        for (level, expected) in stops {
            for damage in [DecodeDamage.truncated, .error, .warning] {
                #expect(level.stops(on: damage) == expected.contains(damage), "\(level) on \(damage)")
            }
        }
        #expect(FailOn.default == .warning)
        #expect(FailOn.names == ["none", "truncated", "error", "warning"])
    }

    @Test("DecodeOptions.stops sends the warning only when the decode goes on")
    func stopsReports() {
        let log = DecodeWarningLog()
        let warning = DecodeWarning(format: .png, damage: .truncated, detail: "row 3 of 9")
        #expect(DecodeOptions(failOn: .truncated, warnings: log.handler).stops(on: .truncated, warning: warning))
        #expect(log.warnings.isEmpty)
        #expect(!DecodeOptions(failOn: .none, warnings: log.handler).stops(on: .truncated, warning: warning))
        #expect(log.warnings == [warning])
        #expect(warning.description == "PNG data is truncated (row 3 of 9); decoded what arrived")
    }

    @Test("options differing only in their handler are equal and hash alike")
    func handlersIgnoredByEquality() {
        let a = DecodeOptions(failOn: .none, warnings: DecodeWarningHandler { _ in })
        let b = DecodeOptions(failOn: .none)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != DecodeOptions(failOn: .error))
    }
}
