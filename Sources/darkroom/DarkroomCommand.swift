import ArgumentParser
import Darkroom
import DarkroomCore
import FoundationEssentials

// MARK: - darkroom

/// The `darkroom` command-line tool.
@main
struct DarkroomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "Fetch, decode, transform, cache and serve images.",
        discussion: """
            Formats are detected from the bytes, never from file names. Errors print one line, \
            'darkroom: error: INPUT: reason', and exit with status 1.
            """,
        version: DarkroomVersion.string,
        subcommands: [
            ProbeCommand.self, ConvertCommand.self, RenderCommand.self, BatchCommand.self, CheckCommand.self,
            ListCommand.self, CacheCommand.self,
        ]
    )

    /// Starts loading the configuration beside the argument parsing, then runs the command:
    /// a plain batch line directly (see ``PlainBatchCommandLine``), everything else through
    /// swift-argument-parser.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        ConfigurationPrefetch.start(arguments: arguments)
        if let batch = PlainBatchCommandLine.options(arguments) {
            do {
                try batch.run()
            } catch {
                // What swift-argument-parser's `main` does with an error `run()` throws.
                exit(withError: error)
            }
            return
        }
        main(nil)
    }
}

// MARK: - Reporting errors

/// Prints `darkroom: error: SUBJECT: reason` on stderr and exits with status 1.
enum CommandFailure {
    static func exit(subject: String, _ error: any Error) -> ExitCode {
        let line: String
        switch error {
        case let DarkroomError.io(path, detail):
            line = "darkroom: error: \(path): \(detail)"
        case let error as DarkroomError:
            line = "darkroom: error: \(subject): \(error)"
        default:
            line = "darkroom: error: \(subject): \(error)"
        }
        StandardError.write(line + "\n")
        return ExitCode(1)
    }
}
