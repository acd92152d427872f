import Foundation
import PackagePlugin

// MARK: - Command plugin: swift package darkroom-check

/// `swift package darkroom-check [--config DIR]` — validates a `filters.d/` folder (by default
/// the package's own) with `darkroom check` and fails with its `file:line: message` lines.
@main
struct DarkroomCheckCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let folder = extractor.extractOption(named: "config").last
            ?? context.package.directoryURL.appendingPathComponent("filters.d").path
        let tool = try context.tool(named: "darkroom")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check", "--config", folder]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("darkroom check found errors in \(folder)")
            throw CheckFailed(folder: folder)
        }
        print("darkroom check: \(folder) is valid")
    }

    struct CheckFailed: Error, CustomStringConvertible {
        var folder: String
        var description: String { "darkroom check failed for \(folder)" }
    }
}
