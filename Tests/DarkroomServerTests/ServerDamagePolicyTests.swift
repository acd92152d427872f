import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomServer
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - [decode] fail-on in the server

@Suite("The server serves damaged sources as [decode] fail-on says: refused by default, rendered at none")
struct ServerDamagePolicyTests {
    /// A server over a root holding `cut.jpg` (a 320×240 photo cut to 60 %), configured by `text`.
    static func server(_ text: String, root: TemporaryDirectory) throws -> ImageServer {
        let photo = try Registry.standard.encode(Pattern.photo(width: 320, height: 240), options: EncodeOptions(format: .jpeg))
        try Data(photo.prefix(photo.count * 6 / 10)).write(to: URL(fileURLWithPath: root.path("cut.jpg")))
        let configuration = ConfigLoader.load(sources: [(name: "server.toml", text: text)], filters: Registry.standard.filters)
        #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics)")
        return try ImageServer(
            registry: .standard, configuration: configuration, caches: .none,
            settings: ImageServerSettings(root: root.url.path, allowsRemoteSources: false, signer: nil)
        ) { $0.caches = .memory() }
    }

    static let variant = """
        [variants.thumb]
        filters = [ { filter = "aspect-fit", width = 32, height = 32 } ]
        format = "jpeg"
        """

    @Test("without [decode] a cut JPEG is an error naming the truncation")
    func refusedByDefault() async throws {
        let root = try TemporaryDirectory()
        let response = try await Self.server(Self.variant, root: root).get("/thumb/cut.jpg")
        #expect(response.status != 200)
        #expect(response.text.contains("truncated JPEG data"), "\(response.text)")
    }

    @Test("with fail-on = none the cut JPEG is rendered and served")
    func renderedAtNone() async throws {
        let root = try TemporaryDirectory()
        let response = try await Self.server("[decode]\nfail-on = \"none\"\n\n" + Self.variant, root: root).get("/thumb/cut.jpg")
        #expect(response.status == 200, "\(response.text)")
        #expect(try ImageProbe.probe(Array(response.body)).size == PixelSize(width: 32, height: 24))
    }
}
