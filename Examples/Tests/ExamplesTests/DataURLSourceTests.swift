import DataURLSource
import Darkroom
import Foundation
import Testing

// MARK: - A source kind of your own

@Suite("A user's source kind (data: URLs) selected in filters.d and rendered through the pipeline")
struct DataURLSourceTests {
    static let registry: Registry = {
        var registry = Registry.standard
        DataURLSource.register(in: &registry)
        return registry
    }()

    static func dataURL(_ bytes: [UInt8], mediaType: String = "image/png") -> String {
        "data:\(mediaType);base64," + Data(bytes).base64EncodedString()
    }

    static let tables = """
        [sources.inline]
        type = "data-url"
        max-bytes = "64KB"

        [variants.small]
        filters = [ { filter = "aspect-fit", width = 16 } ]
        format = "png"
        """

    @Test("a PNG in a data: URL renders to the same bytes as the same PNG read as a file, then comes from the memory layer")
    func rendersThroughThePipeline() async throws {
        let folder = try ExampleFolder()
        try folder.write("10-inline.toml", Self.tables)
        let png = try ExampleFolder.fixture("gradient-rgba.png")
        try Data(png).write(to: URL(fileURLWithPath: folder.path + "/gradient.png"))
        let pipeline = try ImagePipeline(directory: folder.path, fileRoot: folder.path, registry: Self.registry)

        let first = try await pipeline.image(for: Self.dataURL(png), variant: "small")
        let fromFile = try await pipeline.image(for: "gradient.png", variant: "small")
        #expect(first.format == .png)
        #expect(first.bytes == fromFile.bytes)
        #expect(try Self.registry.decode(first.bytes).width == 16)
        #expect(first.cacheLayer == .rendered)
        let again = try await pipeline.image(for: Self.dataURL(png), variant: "small")
        #expect(again.cacheLayer == .memory)
        #expect(again.bytes == first.bytes)
    }

    @Test("two different payloads have two keys; a long URL's key stays short")
    func keys() throws {
        let source = DataURLSource()
        let a = try source.key(for: Self.dataURL([1, 2, 3]))
        let b = try source.key(for: Self.dataURL([1, 2, 4]))
        #expect(a != b)
        #expect(try source.key(for: Self.dataURL([UInt8](repeating: 7, count: 100_000))).count < 64)
    }

    @Test("malformed base64, a missing comma and an oversized payload are refused by name")
    func refusesBadURLs() async throws {
        let source = DataURLSource(maxBytes: 8)
        await #expect(throws: DarkroomError.self) { try await source.load("data:image/png;base64,iVB*") }
        await #expect(throws: DarkroomError.self) { try await source.load("data:image/png;base64") }
        do {
            _ = try await source.load(Self.dataURL([UInt8](repeating: 0, count: 100)))
            Issue.record("a 100-byte payload passed an 8-byte limit")
        } catch {
            #expect("\(error)".contains("over 8 bytes"), "\(error)")
        }
        #expect(try await source.load("data:,a%20b").bytes == Array("a b".utf8))
    }

    @Test("a bad key in the kind's table is a file:line error; the standard registry names the known kinds")
    func configurationErrors() throws {
        let folder = try ExampleFolder()
        try folder.write("10-inline.toml", """
            [sources.inline]
            type = "data-url"
            max-bytes = "lots"
            """)
        do {
            _ = try ImagePipeline(directory: folder.path, registry: Self.registry)
            Issue.record("max-bytes = \"lots\" was accepted")
        } catch {
            #expect("\(error)".contains("10-inline.toml:3"), "\(error)")
        }
        try folder.write("10-inline.toml", Self.tables)
        do {
            _ = try ImagePipeline(directory: folder.path)  // Registry.standard: no data-url kind
            Issue.record("an unregistered kind was accepted")
        } catch {
            #expect("\(error)".contains("data-url"), "\(error)")
        }
    }
}
