import ArgumentParser
import Darkroom
import DarkroomWorkers
import FoundationEssentials
import Glibc
import Logging

// MARK: - DarkroomServerTool

/// The `darkroom-server` executable as a library, so that a package can serve its own filters:
/// `filters.d/` files may then name them, exactly as with `DarkroomCLI`'s `DarkroomTool`.
///
/// ```swift
/// // Sources/my-image-server/main.swift
/// import Darkroom
/// import DarkroomServer
/// import MyFilters
///
/// await DarkroomServerTool.main {
///     var registry = Registry.standard
///     MyFilters.register(in: &registry)
///     return registry
/// }
/// ```
public enum DarkroomServerTool {
    /// Parses `CommandLine.arguments`, builds the server with the registry `makeRegistry`
    /// returns, and serves until SIGTERM or SIGINT. Bad options, a configuration with errors
    /// or a port that cannot be bound print why and exit with status 1 (64 for usage errors).
    public static func main(registry makeRegistry: () -> Registry = { Registry.standard }) async {
        // What libgd's codecs print joins the error of the request that made them print.
        Registry.routeCodecOutputIntoErrors()
        // Started by the server's own DecodeWorkerPool as a decoder worker: serve it, then exit.
        DecodeWorker.runIfAsked(registry: makeRegistry())
        let command: ServeCommand
        do {
            let arguments = try ServerEnvironment.arguments(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            command = try ServeCommand.parse(arguments)
        } catch let failure as ServerEnvironment.Failure {
            ProcessOutput.standardError("darkroom-server: error: \(failure)\n")
            Glibc.exit(64)
        } catch {
            ServeCommand.exit(withError: error)
        }
        let level = Logger.Level(rawValue: command.logLevel) ?? .info
        if command.logFormat == "json" {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level) }
        } else {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        do {
            try await command.run(registry: makeRegistry())
        } catch let failure as ServerStartFailure {
            ProcessOutput.standardError("\(failure)\n")
            Glibc.exit(1)
        } catch {
            ProcessOutput.standardError("darkroom-server: error: \(error)\n")
            Glibc.exit(1)
        }
    }
}
