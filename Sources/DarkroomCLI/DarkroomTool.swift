import Darkroom
import DarkroomCore
import DarkroomWorkers
import FoundationEssentials
import Glibc

// MARK: - DarkroomTool

/// The `darkroom` command-line tool as a library, so that a package can build the same tool
/// with its own filters registered: `list`, `check`, `render` and `batch` then know them.
///
/// The `darkroom` executable is this call with Darkroom's standard components and
/// `DarkroomExampleFilters`. An executable target of your own, depending on the `DarkroomCLI`
/// product and your filter module, does the same with yours:
///
/// ```swift
/// // Sources/my-darkroom/main.swift
/// import Darkroom
/// import DarkroomCLI
/// import MyFilters
///
/// DarkroomTool.main {
///     var registry = Registry.standard
///     MyFilters.register(in: &registry)
///     return registry
/// }
/// ```
///
/// `swift run my-darkroom check --config filters.d` then accepts `filters.d/` files that name
/// `MyFilters`' filters, and `my-darkroom list` shows them with their origin.
public enum DarkroomTool {
    /// Runs the tool on `CommandLine.arguments` with the registry `makeRegistry` builds, and
    /// returns when the command is done (a failing command exits the process with its `ExitStatus`).
    ///
    /// - Parameter makeRegistry: Builds the registry. It is called once, on first use, often
    ///   on another thread while the command line is read, so that building it does not delay
    ///   the first image.
    ///
    /// With `$DARKROOM_ISOLATE_DECODERS` set (`avif,heif,tiff`, `all`, …) the formats it names are
    /// decoded in worker processes (`DarkroomWorkers`), as the server does by default.
    public static func main(registry makeRegistry: @escaping @Sendable () -> Registry = { Registry.standard }) {
        // Started by a DecodeWorkerPool of this tool as a decoder worker: serve it, then exit.
        DecodeWorker.runIfAsked(registry: makeRegistry())
        CommandRegistry.install(isolating(makeRegistry))
        DarkroomCommand.main()
    }

    /// `makeRegistry`, with the formats `$DARKROOM_ISOLATE_DECODERS` names decoded in workers of
    /// this executable (one per processor). A value that names no format stops the tool (64).
    static func isolating(_ makeRegistry: @escaping @Sendable () -> Registry) -> @Sendable () -> Registry {
        let variable = "DARKROOM_ISOLATE_DECODERS"
        guard let text = ProcessInfo.processInfo.environment[variable] else { return makeRegistry }
        let formats: Set<ImageFormat>
        do {
            formats = try IsolatedFormats.parse(text)
        } catch {
            StandardError.write("darkroom: error: $\(variable): \(error)\n")
            exit(64)
        }
        guard !formats.isEmpty, let executable = DecodeWorker.currentExecutable else { return makeRegistry }
        let pool = DecodeWorkerPool(
            configuration: .init(executable: executable, workers: ProcessInfo.processInfo.activeProcessorCount))
        return { makeRegistry().isolatingDecoders(of: formats, in: pool) }
    }
}
