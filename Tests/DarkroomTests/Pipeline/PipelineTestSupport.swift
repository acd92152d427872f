import Darkroom
import DarkroomCache
import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Foundation

// MARK: - Pipeline test support

/// Registries, targets and waiting helpers the pipeline tests share.
enum PipelineFixture {
    static let registry = Registry.standard

    /// A 320×240 photo-like JPEG (a real encode of the `Pattern.photo` formula).
    static let photoJPEG: [UInt8] = try! registry.encode(Pattern.photo(width: 320, height: 240), options: EncodeOptions(format: .jpeg))
    /// A 64×48 PNG used as the fallback image.
    static let placeholderPNG: [UInt8] = try! registry.encode(Pattern.gradient(width: 64, height: 48), options: EncodeOptions(format: .png))

    static func target(_ name: String, _ specs: [String], format: ImageFormat = .png) -> RenderTarget {
        RenderTarget(
            name: name, chain: FilterChain(specs.map { try! registry.filter(parsing: $0) }), encoding: VariantEncoding(format: format))
    }

    static let circle = target("circle", ["aspect-fill(height=64,width=64)", "circle"])
    static let rounded = target("rounded", ["aspect-fill(height=64,width=64)", "rounded-corners(radius=8)"])
    static let thumbnail = target("thumbnail", ["aspect-fit(height=100,width=100)"], format: .jpeg)
    static let gray = target("gray", ["grayscale"])

    /// How many decodes rendering `targets` of `bytes` takes: one per distinct canonical
    /// size hint (each target is decoded at the scale it would use alone).
    static func distinctDecodes(_ targets: [RenderTarget], of bytes: [UInt8]) throws -> Int {
        try RenderPlan(header: try ImageProbe.probe(bytes), targets: targets, registry: registry).decodes.count
    }

    /// Each target rendered alone, as the bytes a render beside other targets must equal.
    static func renderedAlone(_ targets: [RenderTarget], of bytes: [UInt8]) throws -> [[UInt8]] {
        try targets.map { try VariantRenderer(registry: registry).render(bytes, targets: [$0])[0].bytes }
    }

    /// A registry whose first source is `source`.
    static func registry(with source: any ImageSource) -> Registry {
        var registry = Registry.standard
        registry.register(source: source)
        return registry
    }

    static func configuration(
        source: any ImageSource, targets: [RenderTarget] = [circle, rounded, thumbnail, gray],
        memory: EncodedImageMemoryCache? = EncodedImageMemoryCache(), disk: DiskCache? = nil
    ) -> ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration(
            registry: registry(with: source), targets: targets, caches: .standard(memory: memory, disk: disk))
        configuration.maximumActiveProcessing = 2
        return configuration
    }
}

/// Polls `condition` every millisecond until it holds; `false` after `seconds` (long: the bound
/// only catches a hang, and a full parallel test run on two cores can delay a task for seconds).
@discardableResult
func eventually(_ seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
