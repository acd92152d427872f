import ArgumentParser
import Darkroom
import DarkroomCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - darkroom

/// The `darkroom` command-line tool (started by ``DarkroomTool/main(registry:)``).
struct DarkroomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "Fetch, decode, transform, cache and serve images.",
        discussion: """
            Formats are detected from the bytes, never from file names. Errors print one line, \
            'darkroom: error: INPUT: reason'.

            \(ExitStatus.helpText)
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
        // What libgd's codecs print (dav1d, libheif) joins the one-line error it belongs to.
        Registry.routeCodecOutputIntoErrors()
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
        if let argument = dashedWord(in: arguments) {
            exitForUsage(ValidationError(
                "unknown option '\(argument)' (to name a file that starts with '-', write ./\(argument) or put it after --)"),
                arguments: arguments)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exitForUsage(error, arguments: arguments)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The first argument before `--` that starts with one `-` followed by several characters
    /// and is not a number: swift-argument-parser reads `-dash.gif` as the short flags
    /// `-d -a -s -h …`, and its `-h` would print help and exit 0 instead of failing, so such
    /// a word (a file name, usually) is refused here. `-help` is left to mean help.
    static func dashedWord(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2, argument != "-help" else { continue }
            if Double(argument) == nil { return argument }
        }
        return nil
    }

    /// Help and `--version` as swift-argument-parser prints them; any other parse or validation
    /// error as one line, `darkroom: error: COMMAND: reason (see 'darkroom help COMMAND')`, with
    /// status 64, `EX_USAGE` (swift-argument-parser would print the whole usage too).
    static func exitForUsage(_ error: any Error, arguments: [String]) -> Never {
        guard exitCode(for: error) != .success else { exit(withError: error) }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let command = arguments.first.flatMap { names.contains($0) ? $0 : nil }
        let reason = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid usage"
        let help = command.map { "darkroom help \($0)" } ?? "darkroom --help"
        StandardError.write("darkroom: error: \(command.map { "\($0): " } ?? "")\(reason) (see '\(help)')\n")
        Glibc.exit(ExitStatus.usage.rawValue)
    }
}

// MARK: - Reporting errors

/// Prints `darkroom: error: SUBJECT: reason` on stderr and returns the error's ``ExitStatus``.
///
/// The line is shown safely: the user name and password of every URL in it (the subject, or a
/// redirect target in the reason) are replaced by `***`, and control characters (from a binary
/// file named where text was expected) are escaped.
enum CommandFailure {
    static func exit(subject: String, _ error: any Error) -> ExitCode {
        let line: String
        switch error {
        case let DarkroomError.io(path, detail):
            line = "darkroom: error: \(path): \(detail)"
        case let error as SettingsError:
            line = "darkroom: error: \(error)"
        default:
            line = "darkroom: error: \(subject): \(error)"
        }
        StandardError.write(escapingControlCharacters(shown(line)) + "\n")
        return ExitStatus(for: error).exitCode
    }

    /// `subject` with the credentials of every URL in it (`scheme://user:password@host`) hidden.
    ///
    /// ```swift
    /// CommandFailure.shown("http://me:secret@example.com/a.jpg")  // "http://***@example.com/a.jpg"
    /// ```
    static func shown(_ subject: String) -> String {
        var result = ""
        var rest = Substring(subject)
        while let scheme = rest.firstRange(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == " " } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                result += "***"
                rest = rest[at...]
            }
        }
        return result + rest
    }

    /// `text` with control characters other than tab written as `\u{…}`.
    static func escapingControlCharacters(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control && scalar != "\t" {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
