import Foundation
import PackagePlugin

// MARK: - Command plugin: swift package darkroom-check

/// `swift package darkroom-check [--config DIR] [--tool PRODUCT]` — validates a `filters.d/`
/// folder (by default the package's own) with `darkroom check` and fails with its
/// `file:line: message` lines.
///
/// `--tool PRODUCT` runs the `check` of an executable product of the package instead: a tool
/// built with `DarkroomTool.main { … }` that registers the package's own filters, so a
/// `filters.d/` naming them is checked with their argument declarations.
///
/// ```
/// swift package darkroom-check --tool my-darkroom
/// ```
@main
struct DarkroomCheckCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let folder = extractor.extractOption(named: "config").last
            ?? context.package.directoryURL.appendingPathComponent("filters.d").path
        let toolName = extractor.extractOption(named: "tool").last
        guard extractor.remainingArguments.isEmpty else {
            throw PluginFailure(
                "unexpected arguments \(extractor.remainingArguments.joined(separator: " ")); "
                    + "usage: swift package darkroom-check [--config DIR] [--tool PRODUCT]")
        }
        let tool = try toolName.map { try ownTool(named: $0, in: context) } ?? context.tool(named: "darkroom").url
        let process = Process()
        process.executableURL = tool
        process.arguments = ["check", "--config", folder]
        try process.run()
        process.waitUntilExit()
        let checker = toolName ?? "darkroom"
        guard process.terminationStatus == 0 else {
            Diagnostics.error("\(checker) check found errors in \(folder)")
            throw PluginFailure("\(checker) check failed for \(folder)")
        }
        print("\(checker) check: \(folder) is valid")
    }

    // MARK: - The package's own tool

    /// Builds the package's executable product `name` and returns where it was built.
    private func ownTool(named name: String, in context: PluginContext) throws -> URL {
        let executables = context.package.products.filter { $0 is ExecutableProduct }.map(\.name).sorted()
        guard executables.contains(name) else {
            let known = executables.isEmpty ? "the package has none" : "the package has \(executables.joined(separator: ", "))"
            throw PluginFailure("--tool \(name): no executable product of that name (\(known))")
        }
        let result = try packageManager.build(.product(name), parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded else {
            print(result.logText)
            throw PluginFailure("--tool \(name): the build failed")
        }
        guard let built = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == name })
        else { throw PluginFailure("--tool \(name): the build produced no executable named \(name)") }
        return built.url
    }

    struct PluginFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
