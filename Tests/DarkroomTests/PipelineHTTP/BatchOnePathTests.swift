import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTools
import Foundation
import Testing

// MARK: - A batch's files and URLs on one path

@Suite("A batch given a pipeline renders its files and its URLs alike as the pipeline's requests")
struct BatchOnePathTests {
    /// A pipeline with the loopback HTTP source, plain paths, its own counters and shared threads
    /// (as `darkroom batch` makes it).
    static func pipeline(_ http: HTTPPipelineFixture, counters: StageCounters) -> ImagePipeline {
        var configuration = http.configuration(memory: nil)
        configuration.registry.register(source: PathSource())
        configuration.counters = counters
        configuration.threading = .shared
        return ImagePipeline(configuration: configuration)
    }

    @Test("a file and a URL of the same image: both rendered by the pipeline, none inline, the same bytes", .timeLimit(.minutes(2)))
    func filesAndURLsTakeThePipeline() async throws {
        let http = try await HTTPPipelineFixture.start()
        let folder = try TemporaryDirectory()
        try Data(HTTPPipelineFixture.imageBytes).write(to: URL(fileURLWithPath: folder.path("local.jpg")))
        let onPipeline = StageCounters()
        let inline = StageCounters()
        let pipeline = Self.pipeline(http, counters: onPipeline)
        let batch = Batch(
            inputs: [
                BatchInput(path: folder.path("local.jpg"), relativeStem: "local"),
                BatchInput(path: http.url("/image/" + HTTPPipelineFixture.imageName), relativeStem: "remote"),
            ],
            targets: [PipelineFixture.thumbnail], outputDirectory: folder.path("out"))
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: PipelineFixture.registry))
        let summary = await Task.detached { batch.run(renderer: renderer, pipeline: pipeline, jobs: 2, counters: inline) }.value
        for failure in summary.failures { Issue.record("\(failure.input): \(failure.error)") }
        #expect(summary.succeeded == 2)
        #expect(onPipeline.encodes == 2)
        #expect(inline.encodes == 0 && inline.decodes == 0)
        let expected = try HTTPPipelineFixture.expected([PipelineFixture.thumbnail])[0]
        for stem in ["local", "remote"] {
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("out/thumbnail/\(stem).jpg"))))
            #expect(written == expected, "\(stem)")
        }
    }

    @Test("a missing file and one that is no image fail alone, each with its own error, on the pipeline too", .timeLimit(.minutes(2)))
    func failuresNameTheInput() async throws {
        let http = try await HTTPPipelineFixture.start()
        let folder = try TemporaryDirectory()
        try Data(HTTPPipelineFixture.imageBytes).write(to: URL(fileURLWithPath: folder.path("good.jpg")))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder.path("bad.jpg")))
        let pipeline = Self.pipeline(http, counters: StageCounters())
        let batch = Batch(
            inputs: [
                BatchInput(path: folder.path("good.jpg"), relativeStem: "good"),
                BatchInput(path: folder.path("bad.jpg"), relativeStem: "bad"),
                BatchInput(path: folder.path("gone.jpg"), relativeStem: "gone"),
            ],
            targets: [PipelineFixture.thumbnail], outputDirectory: folder.path("out"))
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: PipelineFixture.registry))
        let summary = await Task.detached { batch.run(renderer: renderer, pipeline: pipeline, jobs: 2) }.value
        #expect(summary.succeeded == 1)
        #expect(Set(summary.failures.map(\.input)) == [folder.path("bad.jpg"), folder.path("gone.jpg")])
        let errors = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.input, "\($0.error)") })
        #expect(errors[folder.path("gone.jpg")]?.contains("gone.jpg") == true, "\(errors)")
        #expect(errors[folder.path("bad.jpg")]?.contains("unrecognised image format") == true, "\(errors)")
    }

    @Test("without a pipeline, files render inline and a URL fails at once, naming it")
    func withoutPipeline() async throws {
        let folder = try TemporaryDirectory()
        try Data(HTTPPipelineFixture.imageBytes).write(to: URL(fileURLWithPath: folder.path("local.jpg")))
        let url = "http://127.0.0.1:9/a.jpg"  // never fetched: there is nothing to fetch it with
        let inline = StageCounters()
        let batch = Batch(
            inputs: [BatchInput(path: folder.path("local.jpg"), relativeStem: "local"), BatchInput(path: url, relativeStem: "a")],
            targets: [PipelineFixture.thumbnail], outputDirectory: folder.path("out"))
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: PipelineFixture.registry))
        let summary = await Task.detached { batch.run(renderer: renderer, jobs: 2, counters: inline) }.value
        #expect(summary.succeeded == 1)
        #expect(inline.encodes == 1)
        #expect(summary.failures.map(\.input) == [url])
        let message = summary.failures.first.map { "\($0.error)" } ?? ""
        #expect(message.contains("no pipeline for URLs"), "\(message)")
    }
}
