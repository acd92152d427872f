import DarkroomTestSupport
import Foundation
import Testing

// MARK: - The plugins on a sample package

/// Builds a throw-away package that depends on this repository and uses both plugins, with a
/// broken and then a fixed `filters.d/`. The sample's build folder is kept under this
/// repository's `.build/` so repeated runs are incremental.
@Suite("The SwiftPM plugins check filters.d in a package that uses them", .serialized)
struct PluginSamplePackageTests {
    static let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    static let scratch = repository.appendingPathComponent(".build/plugin-sample").path

    /// A sample package in a temporary folder.
    struct Sample {
        let folder: TemporaryDirectory

        init() throws {
            folder = try TemporaryDirectory(prefix: "darkroom-plugin-sample")
            let identity = PluginSamplePackageTests.repository.lastPathComponent.lowercased()
            try write("Package.swift", """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "PluginSample",
                    dependencies: [.package(path: "\(PluginSamplePackageTests.repository.path)")],
                    targets: [
                        .executableTarget(
                            name: "App",
                            plugins: [.plugin(name: "DarkroomConfigCheck", package: "\(identity)")]
                        )
                    ]
                )
                """)
            try write("Sources/App/main.swift", "print(\"sample\")\n")
        }

        func write(_ relative: String, _ text: String) throws {
            let url = folder.url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// Runs `swift ARGUMENTS` in the sample folder, waiting on a thread of its own.
        func swift(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let folder = folder.url
            return try await onOwnThread { try Self.run(arguments, in: folder) }
        }

        static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift"] + arguments
            process.currentDirectoryURL = folder
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    static let broken = """
        [variants.soft]
        filters = [ { filter = "blurr", sigma = 2 } ]
        format = "png"
        """

    static let valid = """
        [variants.soft]
        filters = [ { filter = "blur", sigma = 2 } ]
        format = "png"
        """

    @Test("the build-tool plugin fails the build with file:line diagnostics, then passes once fixed")
    func buildToolPlugin() async throws {
        let sample = try Sample()
        try sample.write("filters.d/10-soft.toml", Self.broken)
        let failed = try await sample.swift(["build", "--scratch-path", Self.scratch])
        #expect(failed.status != 0)
        #expect(failed.output.contains("10-soft.toml:2: error: unknown filter 'blurr'"), "\(failed.output.suffix(2000))")

        try sample.write("filters.d/10-soft.toml", Self.valid)
        let passed = try await sample.swift(["build", "--scratch-path", Self.scratch])
        #expect(passed.status == 0, "\(passed.output.suffix(2000))")
    }

    @Test("the command plugin reports errors and exits non-zero, and passes a valid folder")
    func commandPlugin() async throws {
        let sample = try Sample()
        try sample.write("filters.d/10-soft.toml", Self.broken)
        let failed = try await sample.swift(["package", "--scratch-path", Self.scratch, "darkroom-check"])
        #expect(failed.status != 0)
        #expect(failed.output.contains("10-soft.toml:2: unknown filter 'blurr'"), "\(failed.output.suffix(2000))")

        try sample.write("filters.d/10-soft.toml", Self.valid)
        let passed = try await sample.swift(["package", "--scratch-path", Self.scratch, "darkroom-check"])
        #expect(passed.status == 0, "\(passed.output.suffix(2000))")
        #expect(passed.output.contains("is valid"))
    }
}
