import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomTools
import Foundation
import Testing

// MARK: - A batch's URLs, waited for from cooperative threads

@Suite("A batch's URL inputs are waited for on the pipeline's threads, never needing Swift's cooperative pool")
struct BatchURLLaneTests {
    /// Every cooperative thread (and one more) blocks in a synchronous `Batch.run` at once. Had
    /// the URL lane run on the cooperative pool, no thread would be left to run it and the
    /// batches would never finish; on the pipeline's own threads every one of them does.
    @Test("batches blocking every cooperative thread at once all finish", .timeLimit(.minutes(2)))
    func batchesOnEveryCooperativeThread() async throws {
        let http = try await HTTPPipelineFixture.start()
        let folder = try TemporaryDirectory()
        let pipeline = ImagePipeline(configuration: http.configuration(memory: nil))
        let url = http.url("/image/" + HTTPPipelineFixture.imageName)
        let lanes = ProcessInfo.processInfo.activeProcessorCount + 1
        let succeeded = await withTaskGroup(of: Int.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    let batch = Batch(
                        inputs: [BatchInput(path: url, relativeStem: "gradient")], targets: [PipelineFixture.thumbnail],
                        outputDirectory: folder.path("out\(lane)"))
                    let renderer = CachingRenderer(renderer: VariantRenderer(registry: PipelineFixture.registry))
                    let summary = batch.run(renderer: renderer, pipeline: pipeline)
                    for failure in summary.failures { Issue.record("\(failure.input): \(failure.error)") }
                    return summary.succeeded
                }
            }
            return await group.reduce(0, +)
        }
        #expect(succeeded == lanes)
        let expected = try HTTPPipelineFixture.expected([PipelineFixture.thumbnail])[0]
        for lane in 0..<lanes {
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("out\(lane)/thumbnail/gradient.jpg"))))
            #expect(written == expected)
        }
    }
}
