import Darkroom

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
    public static func main(registry makeRegistry: @escaping @Sendable () -> Registry = { Registry.standard }) {
        CommandRegistry.install(makeRegistry)
        DarkroomCommand.main()
    }
}
