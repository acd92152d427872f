import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Help text

@Suite("help states each option's default once")
struct HelpTextTests {
    /// The option entries of a help text: each starts with a line indented by two spaces and a
    /// dash, and runs until the next such line (its wrapped lines joined by spaces).
    static func optionEntries(_ help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                entries.append(String(line))
            } else if line.hasPrefix("    "), !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return entries
    }

    @Test("no option of darkroom's commands or darkroom-server names its default twice", arguments: [
        ["convert"], ["render"], ["batch"], ["check"], ["list"], ["probe"], ["cache", "stats"], ["cache", "purge"],
        ["cache", "sweep"], ["server"],
    ])
    func oneDefault(command: [String]) async throws {
        let outcome = command == ["server"]
            ? try await CommandRunner.run(["--help"], executable: CommandRunner.builtExecutable(named: "darkroom-server"))
            : try await CommandRunner.run(command + ["--help"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entries = Self.optionEntries(outcome.stdout)
        #expect(!entries.isEmpty, "\(outcome.stdout)")
        for entry in entries {
            let defaults = entry.components(separatedBy: "(default").count - 1
            #expect(defaults <= 1, "\(command): \(entry)")
        }
    }
}
