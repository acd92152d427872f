import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - ImagePipeline(directory:fileRoot:)

@Suite("ImagePipeline(directory:fileRoot:) builds a pipeline from a filters.d folder in one line, or throws every error")
struct PipelineFromDirectoryTests {
    static func folder(_ text: String) throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: config + "/10-test.toml"))
        return (folder, config)
    }

    static let variants = """
        [variants.small]
        filters = [ { filter = "aspect-fit", width = 16 } ]
        format = "png"

        [sources.http]
        allow-private-networks = true
        allowed-ports = []
        """

    @Test("files under the root and loopback URLs render the folder's variant; a second call is a memory hit")
    func rendersFilesAndURLs() async throws {
        let (folder, config) = try Self.folder(Self.variants)
        let pipeline = try ImagePipeline(directory: config, fileRoot: Fixtures.directory.path)
        let file = try await pipeline.image(for: "gradient.jpg", variant: "small")
        #expect(try ImageProbe.probe(file.bytes).size == PixelSize(width: 16, height: 12))
        #expect(file.format == .png)
        let again = try await pipeline.image(for: "gradient.jpg", variant: "small")
        #expect(again.cacheLayer == .memory && again.bytes == file.bytes)
        let server = try LoopbackHTTPServer.start()
        let remote = try await pipeline.image(for: server.url("/image/gradient.jpg"), variant: "small")
        #expect(try ImageProbe.probe(remote.bytes).size == PixelSize(width: 16, height: 12))
        withExtendedLifetime(folder) {}
    }

    @Test("a folder with errors throws them all as file:line: message, none silently dropped")
    func throwsEveryError() throws {
        let (folder, config) = try Self.folder("""
            [variants.a]
            filters = [ "nosuch" ]

            [variants.b]
            filters = [ { filter = "blur", sigma = -1 } ]
            """)
        #expect {
            _ = try ImagePipeline(directory: config, fileRoot: Fixtures.directory.path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let lines = error.description.split(separator: "\n")
            return lines.count == 2 && lines[0].contains("10-test.toml:2: unknown filter 'nosuch'")
                && lines[1].contains("10-test.toml:5:")
        }
        withExtendedLifetime(folder) {}
    }

    @Test("a missing folder, and a file root that is not a folder, are refused by name")
    func missingFolders() throws {
        let (folder, config) = try Self.folder(Self.variants)
        #expect {
            _ = try ImagePipeline(directory: folder.path("nope"))
        } throws: { error in
            "\(error)".contains("nope: configuration directory does not exist")
        }
        #expect {
            _ = try ImagePipeline(directory: config, fileRoot: folder.path("missing-root"))
        } throws: { error in
            "\(error)".contains("missing-root")
        }
    }
}
