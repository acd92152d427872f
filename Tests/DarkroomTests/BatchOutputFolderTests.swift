@testable import Darkroom
@testable import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - A batch whose output folder is in (or is) an input folder

@Suite("A batch never takes its own outputs as inputs, nor writes an output over its input")
struct BatchOutputFolderTests {
    private static func png() throws -> Data {
        Data(try Registry.standard.encode(Pattern.photo(width: 8, height: 8), options: EncodeOptions(format: .png)))
    }

    private static func write(_ names: [String], in folder: TemporaryDirectory) throws {
        for name in names {
            let path = folder.path(name)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try png().write(to: URL(fileURLWithPath: path))
        }
    }

    @Test("an output folder inside the walked folder is skipped, with every variant's folder")
    func outputFolderInsideInput() throws {
        let folder = try TemporaryDirectory()
        try Self.write(["in/a.png", "in/out/thumb/a.png", "in/out/older/a.png", "in/sub/b.png"], in: folder)
        let skipped = BatchInput.outputFolders(folder.path("in/out"), variants: ["thumb"])
        let inputs = try BatchInput.expand([folder.path("in")], skipping: skipped)
        #expect(inputs.map(\.relativeStem) == ["a", "sub/b"])
    }

    @Test("an output folder that is the walked folder skips only the variants' folders")
    func outputFolderIsInput() throws {
        let folder = try TemporaryDirectory()
        try Self.write(["in/a.png", "in/thumb/a.png", "in/avatar/a.png", "in/other/c.png"], in: folder)
        // Spelled differently from the input on purpose: the folders are compared as files.
        let skipped = BatchInput.outputFolders(folder.path("in/./"), variants: ["thumb", "avatar"])
        let inputs = try BatchInput.expand([folder.path("in")], skipping: skipped)
        #expect(inputs.map(\.relativeStem) == ["a", "other/c"])
    }

    @Test("an input that is its own output fails and is left as it was; the others still render")
    func outputOverInput() throws {
        let folder = try TemporaryDirectory()
        try Self.write(["out/thumb/a.png", "b.png"], in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path("out/thumb/a.png")))
        let registry = Registry.standard
        let target = RenderTarget(
            name: "thumb", chain: FilterChain([try registry.filter(parsing: "scale(height=4,width=4)")]),
            encoding: VariantEncoding(format: .png))
        let inputs = try BatchInput.expand([folder.path("out/thumb/a.png"), folder.path("b.png")])
        let batch = Batch(inputs: inputs, targets: [target], outputDirectory: folder.path("out"))
        let summary = batch.run(renderer: CachingRenderer(renderer: VariantRenderer(registry: registry)))
        #expect(summary.succeeded == 1)
        #expect(summary.failures.map(\.input) == [folder.path("out/thumb/a.png")])
        let error = summary.failures.first?.error as? DarkroomError
        #expect(error == .io(
            path: folder.path("out/thumb/a.png"),
            detail: "its thumb output would overwrite the input (it is in the output folder)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("out/thumb/a.png"))) == before)
        #expect(FileManager.default.fileExists(atPath: folder.path("out/thumb/b.png")))
    }
}

// MARK: - What killed batches left

@Suite("A batch removes the temporary files an earlier, killed run left in its output folders")
struct AbandonedTemporaryFileTests {
    /// Runs a shell that leaves `.NAME.tmp-ITSPID-RANDOM` in `folder` and exits, as a writer
    /// killed between creating its temporary file and renaming it does.
    static func leaveTemporaryFile(named name: String, in folder: String) throws -> String {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "cd \"$1\" && echo partial > \".\(name).tmp-$$-4242\" && echo \".\(name).tmp-$$-4242\"", "sh", folder]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        shell.waitUntilExit()
        let left = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return left.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a dead writer's temporary file goes, a live one's and every other file stay")
    func onlyDeadWritersFiles() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path("out/thumb"), withIntermediateDirectories: true)
        let dead = try Self.leaveTemporaryFile(named: "a.png", in: folder.path("out/thumb"))
        let live = ".b.png.tmp-\(getpid())-7"
        for name in [live, "c.png", ".hidden", ".d.png.tmp-x-1"] {
            _ = FileManager.default.createFile(atPath: folder.path("out/thumb/" + name), contents: Data([1]))
        }
        let registry = Registry.standard
        try Registry.standard.encode(Pattern.photo(width: 8, height: 8), options: EncodeOptions(format: .png))
            .withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: folder.path("e.png"))) }
        let target = RenderTarget(
            name: "thumb", chain: FilterChain([try registry.filter(parsing: "scale(height=4,width=4)")]),
            encoding: VariantEncoding(format: .png))
        let batch = Batch(inputs: try BatchInput.expand([folder.path("e.png")]), targets: [target], outputDirectory: folder.path("out"))
        #expect(batch.run(renderer: CachingRenderer(renderer: VariantRenderer(registry: registry))).succeeded == 1)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/thumb")))
        #expect(!dead.isEmpty && !left.contains(dead))
        #expect(left == [live, "c.png", ".hidden", ".d.png.tmp-x-1", "e.png"])
    }
}
