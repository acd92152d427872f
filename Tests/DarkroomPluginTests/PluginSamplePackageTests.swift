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

        /// With `ownTool`, the sample also has an executable `my-darkroom`: the darkroom tool
        /// built with `DarkroomTool.main` and a filter of the sample's own (`keep-green`).
        init(ownTool: Bool = false) throws {
            folder = try TemporaryDirectory(prefix: "darkroom-plugin-sample")
            let identity = PluginSamplePackageTests.repository.lastPathComponent.lowercased()
            let toolTarget = !ownTool ? "" : """
                ,
                        .executableTarget(name: "my-darkroom", dependencies: [
                            .product(name: "DarkroomCLI", package: "\(identity)"),
                            .product(name: "Darkroom", package: "\(identity)"),
                            .product(name: "DarkroomCore", package: "\(identity)"),
                        ])
                """
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
                        )\(toolTarget)
                    ]
                )
                """)
            try write("Sources/App/main.swift", "print(\"sample\")\n")
            if ownTool { try write("Sources/my-darkroom/main.swift", Self.ownToolSource) }
        }

        /// A tool registering `keep-green(level:)`, which the darkroom tool does not know.
        static let ownToolSource = """
            import Darkroom
            import DarkroomCLI
            import DarkroomCore

            struct KeepGreen: DeclaredFilter {
                static let name = "keep-green"
                static let summary = "Sets red and blue to zero, green to at most level."
                static let arguments: [FilterArgument] = [
                    FilterArgument(name: "level", kind: .integer(0...255), default: .integer(255), summary: "green's ceiling"),
                ]
                static let isIdempotent = true
                let arguments: FilterArguments
                init(arguments: FilterArguments) { self.arguments = arguments }
                func apply(to image: Image) throws -> Image { image }
            }

            DarkroomTool.main {
                var registry = Registry.standard
                registry.register(filter: KeepGreen.self, origin: "my-darkroom")
                return registry
            }
            """

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

    @Test("the command plugin checks with the package's own tool (--tool), which knows the package's filters")
    func commandPluginWithOwnTool() async throws {
        let sample = try Sample(ownTool: true)
        try sample.write("filters.d/10-green.toml", """
            [variants.green]
            filters = [ { filter = "keep-green", level = 300 } ]
            format = "png"
            """)
        let plugin = ["package", "--scratch-path", Self.scratch, "darkroom-check"]
        let plain = try await sample.swift(plugin)
        #expect(plain.status != 0)
        #expect(plain.output.contains("10-green.toml:2: unknown filter 'keep-green'"), "\(plain.output.suffix(2000))")

        let outOfRange = try await sample.swift(plugin + ["--tool", "my-darkroom"])
        #expect(outOfRange.status != 0)
        #expect(
            outOfRange.output.contains("10-green.toml:2: invalid keep-green argument 'level' '300': expected an integer 0…255"),
            "\(outOfRange.output.suffix(2000))")

        try sample.write("filters.d/10-green.toml", """
            [variants.green]
            filters = [ { filter = "keep-green", level = 200 } ]
            format = "png"
            """)
        let passed = try await sample.swift(plugin + ["--tool", "my-darkroom"])
        #expect(passed.status == 0, "\(passed.output.suffix(2000))")
        #expect(passed.output.contains("my-darkroom check: "), "\(passed.output.suffix(2000))")

        let unknown = try await sample.swift(plugin + ["--tool", "my-darkroomz"])
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("--tool my-darkroomz: no executable product of that name (the package has App, my-darkroom)"),
            "\(unknown.output.suffix(2000))")
    }
}
