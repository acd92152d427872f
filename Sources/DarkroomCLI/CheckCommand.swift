import ArgumentParser
import Darkroom
import DarkroomConfig
import DarkroomTools
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
            'file:line: warning: message' and do not fail the check; a configuration without \
            variants is warned about. A folder is read over the built-in defaults (their \
            variants, caches and sources first; a file saying [defaults] include = false opts \
            out). A summary goes to stderr. \
            --json prints one JSON object instead: config, variants, files, errors and warnings \
            (each with file, line and message).
            --config defaults to $DARKROOM_CONFIG, else ./filters.d, else the embedded default.
            """
    )

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Flag(help: "Print errors as 'file:line: error: message' (the form IDEs and SwiftPM recognise).")
    var diagnostics = false

    @Flag(help: "Print one JSON object instead of lines.")
    var json = false

    @Option(help: ArgumentHelp("Touch this file when the check passes (for build plugins).", valueName: "FILE"))
    var stamp: String?

    func run() throws {
        let (location, configuration) = CommandRegistry.configuration(config)
        // Cache tables of kinds a module registers are checked by the registry, not the loader.
        let cacheProblems = CommandRegistry.shared.cacheDiagnostics(for: configuration.cacheSettings)
            + CommandRegistry.shared.sourceDiagnostics(for: configuration.sourceTables)
        var all = configuration.diagnostics + cacheProblems
        if configuration.variants.isEmpty && configuration.unresolvedVariants.isEmpty {
            // Valid, but nothing to render: most likely `[defaults] include = false` by mistake.
            all.append(.warning(at: .wholeFile("\(location)"), "the configuration defines no variants"))
        }
        if json { print(Self.json(all, location: location, configuration: configuration)) }
        for diagnostic in all where !json {
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
            let layered = location.readsBuiltInDefaults(configuration) ? " over the built-in defaults" : ""
            summary = "darkroom check: \(location): \(configuration.variants.count) variants, "
                + "\(Self.fileCount(configuration, location: location)) files\(layered), no errors"
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

// MARK: - JSON

extension CheckCommand {
    /// The files counted in the summary: a folder's own, or the built-in ones when it is the
    /// embedded default that was read.
    static func fileCount(_ configuration: Configuration, location: ConfigLocation) -> Int {
        location == .embeddedDefault ? configuration.files.count : ConfigLocation.ownFiles(of: configuration).count
    }

    /// `{"config":…,"variants":…,"files":…,"builtInDefaults":…,"errors":[…],"warnings":[…]}`, each diagnostic as
    /// `{"file":…,"line":…,"message":…}` (line 0: the file as a whole).
    static func json(_ diagnostics: [Diagnostic], location: ConfigLocation, configuration: Configuration) -> String {
        func list(_ items: [Diagnostic]) -> String {
            "[" + items.map {
                "{\"file\":\(JSONText.string($0.file)),\"line\":\($0.line),\"message\":\(JSONText.string($0.message))}"
            }.joined(separator: ",") + "]"
        }
        let errors = diagnostics.filter(\.isError)
        let warnings = diagnostics.filter { !$0.isError }
        return "{\"config\":\(JSONText.string("\(location)")),\"variants\":\(configuration.variants.count),"
            + "\"files\":\(fileCount(configuration, location: location)),\"builtInDefaults\":\(location.readsBuiltInDefaults(configuration)),"
            + "\"errors\":\(list(errors)),\"warnings\":\(list(warnings))}"
    }
}

