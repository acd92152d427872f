import Foundation
import PackagePlugin

// MARK: - Build-tool plugin: validate filters.d at build time

/// Runs `darkroom check` on the `filters.d/` folder of the target using this plugin (or, when
/// the target has none, of its package) before the target is built. An invalid config fails
/// the build with `file:line: error: message` diagnostics.
///
/// ```swift
/// .target(name: "MyApp", plugins: [.plugin(name: "DarkroomConfigCheck", package: "darkroom")])
/// ```
@main
struct DarkroomConfigCheck: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let fileManager = FileManager.default
        let targetFolder = target.directoryURL.appendingPathComponent("filters.d")
        let packageFolder = context.package.directoryURL.appendingPathComponent("filters.d")
        let folder = fileManager.fileExists(atPath: targetFolder.path) ? targetFolder : packageFolder
        guard fileManager.fileExists(atPath: folder.path) else {
            Diagnostics.warning("DarkroomConfigCheck: no filters.d folder in \(target.name) or its package")
            return []
        }
        let inputs = try fileManager.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".toml") }
            .sorted()
            .map { folder.appendingPathComponent($0) }
        let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("filters.d.checked")
        return [
            .buildCommand(
                displayName: "Checking \(folder.path) with darkroom check",
                executable: try context.tool(named: "darkroom").url,
                arguments: ["check", "--config", folder.path, "--diagnostics", "--stamp", stamp.path],
                inputFiles: inputs,
                outputFiles: [stamp]
            )
        ]
    }
}
