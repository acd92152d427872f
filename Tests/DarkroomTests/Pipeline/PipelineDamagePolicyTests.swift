import Darkroom
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - fail-on in the pipeline

@Suite("The pipeline decodes damaged sources as its fail-on level says, and names the source in each warning")
struct PipelineDamagePolicyTests {
    /// The 320×240 test photo cut to 60 %.
    static let cutJPEG = Array(PipelineFixture.photoJPEG.prefix(PipelineFixture.photoJPEG.count * 6 / 10))

    @Test("by default a cut source fails as truncated; at none it renders and the handler gets its location")
    func levels() async throws {
        let source = MemorySource(["cut.jpg": Self.cutJPEG])
        let strict = ImagePipeline(configuration: PipelineFixture.configuration(source: source, targets: [PipelineFixture.thumbnail]))
        await #expect {
            _ = try await strict.image(for: MemorySource.scheme + "cut.jpg", variant: "thumbnail")
        } throws: { error in
            guard case .truncated(.jpeg, _) = error as? DarkroomError else { return false }
            return true
        }

        let log = DecodeWarningLog()
        var settings = PipelineFixture.configuration(source: source, targets: [PipelineFixture.thumbnail])
        settings.decoding.failOn = .none
        settings.decoding.warnings = log.handler
        let lenient = ImagePipeline(configuration: settings)
        let response = try await lenient.image(for: MemorySource.scheme + "cut.jpg", variant: "thumbnail")
        #expect(try ImageProbe.probe(response.bytes).size == PixelSize(width: 100, height: 75))
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.damage == .truncated)
        #expect(log.warnings.first?.source == MemorySource.scheme + "cut.jpg")
    }

    @Test("[decode] fail-on in a filters.d folder reaches the pipeline built from it")
    func fromDirectory() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("filters.d"), images = folder.path("images")
        for path in [config, images] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        try Data(Self.cutJPEG).write(to: URL(fileURLWithPath: images + "/cut.jpg"))
        try Data("""
            [decode]
            fail-on = "none"

            [variants.small]
            filters = [ { filter = "aspect-fit", width = 16 } ]
            format = "png"
            """.utf8).write(to: URL(fileURLWithPath: config + "/10-test.toml"))
        let pipeline = try ImagePipeline(directory: config, fileRoot: images)
        let response = try await pipeline.image(for: "cut.jpg", variant: "small")
        #expect(try ImageProbe.probe(response.bytes).size == PixelSize(width: 16, height: 12))
    }
}
