import ArgumentParser
import Darkroom
import DarkroomConfig
import FoundationEssentials
import DarkroomSources

// MARK: - darkroom check

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a filters.d/ configuration.",
        discussion: """
            Exits 0 when the configuration is valid. Otherwise prints every error, one per line \
            as 'file:line: message', on standard output and exits 78 (EX_CONFIG). Warnings are printed as \
            'file:line: warning: message' and do not fail the check. A summary goes to stderr.
            --config defaults to $DARKROOM_CONFIG, else ./filters.d, else the embedded default.
            """
    )

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Flag(help: "Print errors as 'file:line: error: message' (the form IDEs and SwiftPM recognise).")
    var diagnostics = false

    @Option(help: ArgumentHelp("Touch this file when the check passes (for build plugins).", valueName: "FILE"))
    var stamp: String?

    func run() throws {
        let (location, configuration) = CommandRegistry.configuration(config)
        // Cache tables of kinds a module registers are checked by the registry, not the loader.
        let cacheProblems = CommandRegistry.shared.cacheDiagnostics(for: configuration.cacheSettings)
            + CommandRegistry.shared.sourceDiagnostics(for: configuration.sourceTables)
        for diagnostic in configuration.diagnostics + cacheProblems {
            if diagnostics && diagnostic.isError {
                let place = diagnostic.line > 0 ? "\(diagnostic.file):\(diagnostic.line)" : diagnostic.file
                print("\(place): error: \(diagnostic.message)")
            } else {
                print(diagnostic.description)
            }
        }
        let errors = configuration.errors.count + cacheProblems.filter(\.isError).count
        let summary: String
        if errors > 0 {
            summary = "darkroom check: \(location): \(errors) error\(errors == 1 ? "" : "s")"
        } else {
            summary = "darkroom check: \(location): \(configuration.variants.count) variants, "
                + "\(configuration.files.count) files, no errors"
        }
        StandardError.write(summary + "\n")
        guard errors == 0 else { throw ExitStatus.configuration.exitCode }
        if let stamp {
            do {
                try AtomicFileWriter.write(Array("ok\n".utf8), to: stamp)
            } catch {
                throw CommandFailure.exit(subject: stamp, error)
            }
        }
    }
}
