// Micro-benchmark of ImagePipeline: the cost of a memory-cache hit through
// `pipeline.image(for:variant:)`, and the per-request overhead of a render through the pipeline
// compared with calling VariantRenderer directly on the same bytes.
//
// Run with Benchmarks/pipeline/run.sh (a release build).
import Darkroom
import DarkroomCore
import DarkroomSources
import Foundation
import DarkroomConfig

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func photo(width: Int, height: Int) -> Image {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            pixels[i] = UInt8((x * 255) / max(1, width - 1))
            pixels[i + 1] = UInt8((y * 255) / max(1, height - 1))
            pixels[i + 2] = UInt8(((x ^ y) & 0x3F) * 4)
        }
    }
    return try! Image(width: width, height: height, pixels: pixels, hasAlpha: false)
}

let registry = Registry.standard
let small = try registry.encode(photo(width: 320, height: 240), options: EncodeOptions(format: .jpeg))
let chain = FilterChain([try registry.filter(parsing: "aspect-fill(height=64,width=64)"), try registry.filter(parsing: "circle")])
let target = RenderTarget(name: "avatar", chain: chain, encoding: .init(format: .png))

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-pipeline-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
try Data(small).write(to: folder.appendingPathComponent("photo.jpg"))

var sources = registry
sources.register(source: MemorySource(["photo": small]))
sources.register(source: try FileSource(root: folder.path))

// MARK: - Memory hits

func timeHits(_ pipeline: ImagePipeline, location: String, rounds: Int = 50, perRound: Int = 2_000) async throws -> Double {
    _ = try await pipeline.image(for: location, variant: "avatar")  // render once
    var perCall: [Double] = []
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<perRound {
            let response = try await pipeline.image(for: location, variant: "avatar")
            precondition(response.cacheLayer == .memory)
        }
        let elapsed = ContinuousClock.now - start
        perCall.append(Double(elapsed.components.attoseconds) / 1e9 / Double(perRound)
            + Double(elapsed.components.seconds) * 1e9 / Double(perRound))
    }
    return median(perCall)
}

// HITS_ONLY=N: only N memory hits, for counting instructions under callgrind.
if let hits = ProcessInfo.processInfo.environment["HITS_ONLY"].flatMap(Int.init) {
    _ = try await timeHits(ImagePipeline(configuration: .init(registry: sources, targets: [target])), location: "memory:photo", rounds: 1, perRound: hits)
    exit(0)
}

let cached = ImagePipeline(configuration: .init(registry: sources, targets: [target]))
let memoryHit = try await timeHits(cached, location: "memory:photo")
let fileHit = try await timeHits(cached, location: "photo.jpg")

// MARK: - Render overhead

var uncachedConfiguration = ImagePipeline.Configuration(registry: sources, targets: [target], caches: .none)
uncachedConfiguration.maximumActiveProcessing = 1
let uncached = ImagePipeline(configuration: uncachedConfiguration)
let renderer = VariantRenderer(registry: registry)
var direct: [Double] = [], piped: [Double] = []
for _ in 0..<10 { _ = try renderer.render(small, targets: [target]); _ = try await uncached.image(for: "memory:photo", variant: "avatar") }
for _ in 0..<300 {
    let a = ContinuousClock.now
    _ = try renderer.render(small, targets: [target])
    let b = ContinuousClock.now
    let response = try await uncached.image(for: "memory:photo", variant: "avatar")
    precondition(response.cacheLayer == .rendered)
    let c = ContinuousClock.now
    func ns(_ d: Duration) -> Double { Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9 }
    direct.append(ns(b - a))
    piped.append(ns(c - b))
}

print("memory-cache hit, MemorySource (no fingerprint): \(Int(memoryHit.rounded())) ns median per image(for:variant:)")
print("memory-cache hit, FileSource (one stat; realpath only on first sight): \(Int(fileHit.rounded())) ns median")
print("render 320x240 JPEG -> aspect-fill 64x64 + circle -> PNG:")
print("  VariantRenderer.render      \(Int((median(direct) / 1000).rounded())) µs median")
print("  pipeline.image (no caches)  \(Int((median(piped) / 1000).rounded())) µs median")
print("  overhead                    \(Int(((median(piped) - median(direct)) / 1000).rounded())) µs per request")
