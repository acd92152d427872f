import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Animated GIF and WebP

@Suite("animated GIF and WebP keep every frame, their delays, disposals and loop count, through filters and both encoders")
struct AnimationTests {
    let registry = Registry.standard

    /// A solid frame of `size`; `hole` is a transparent square in its middle.
    static func frame(_ colour: RGBA, size: PixelSize = PixelSize(width: 12, height: 8), hole: Bool = false) throws -> Image {
        var pixels: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inHole = hole && (4..<8).contains(x) && (2..<6).contains(y)
                pixels += inHole ? [0, 0, 0, 0] : [colour.r, colour.g, colour.b, 255]
            }
        }
        return try Image(width: size.width, height: size.height, pixels: pixels, hasAlpha: hole)
    }

    /// Three frames: red, green, then blue with a transparent hole; 100, 200 and 300 ms; the
    /// last cleared to the background.
    static func animation(loopCount: Int = 3) throws -> Image {
        var first = try frame(RGBA(r: 255, g: 0, b: 0))
        let later = [try frame(RGBA(r: 0, g: 255, b: 0)), try frame(RGBA(r: 0, g: 0, b: 255), hole: true)]
        first.animation = try Animation(
            loopCount: loopCount,
            timings: [FrameTiming(delay: 100), FrameTiming(delay: 200), FrameTiming(delay: 300, disposal: .background)],
            laterFrames: later, size: first.size)
        return first
    }

    static func frames(of image: Image) -> [Image] { [image.firstFrame] + (image.animation?.laterFrames ?? []) }

    @Test("an animation written as GIF reads back frame for frame, with delays, disposals and loop count", arguments: [0, 3])
    func gifRoundTrip(loopCount: Int) throws {
        let original = try Self.animation(loopCount: loopCount)
        let bytes = try registry.encode(original, options: EncodeOptions(format: .gif))
        let header = try ImageProbe.probe(bytes)
        #expect(header.frameCount == 3)
        let decoded = try registry.decode(bytes)
        #expect(decoded.animation?.frameCount == 3)
        #expect(decoded.animation?.loopCount == loopCount)
        #expect(decoded.animation?.timings.map(\.delay) == [100, 200, 300])
        // The green frame is written with disposal `background`: kept `none`, it would show
        // through the blue frame's transparent hole.
        #expect(decoded.animation?.timings.map(\.disposal) == [.none, .background, .background])
        // An exact palette (under 256 colours) and 1-bit alpha: the pixels survive exactly.
        #expect(Self.frames(of: decoded) == Self.frames(of: original))
    }

    @Test("an animation written as WebP (lossless) reads back frame for frame, with delays and loop count")
    func webpRoundTrip() throws {
        let original = try Self.animation(loopCount: 2)
        let bytes = try registry.encode(original, options: EncodeOptions(format: .webp, lossless: true))
        let decoded = try registry.decode(bytes)
        #expect(decoded.animation?.frameCount == 3)
        #expect(decoded.animation?.loopCount == 2)
        #expect(decoded.animation?.timings.map(\.delay) == [100, 200, 300])
        let frames = Self.frames(of: decoded)
        let expected = Self.frames(of: original)
        // Fully transparent pixels may come back with any colour: compare what shows.
        for (got, want) in zip(frames, expected) {
            for y in 0..<want.height {
                for x in 0..<want.width where want.pixel(x: x, y: y).a == 255 {
                    #expect(got.pixel(x: x, y: y) == want.pixel(x: x, y: y))
                }
            }
        }
    }

    @Test("the GIF reader composes frames as ImageMagick's -coalesce does (fixture and sample)", arguments: [
        "animated-3-frames.gif", "../../Samples/tiny.gif",
    ])
    func composedLikeImageMagick(name: String) async throws {
        let path = Fixtures.path(name)
        let decoded = try registry.decode(Fixtures.bytes(name))
        let frames = Self.frames(of: decoded)
        let identify = try await ChildProcess.run("/usr/bin/identify", [path])
        #expect(identify.output.split(separator: "\n").count == frames.count)
        let pngs = try TemporaryDirectory(prefix: "darkroom-coalesce")
        let written = try await ChildProcess.run("/usr/bin/convert", [path, "-coalesce", pngs.path("frame-%03d.png")])
        #expect(written.status == 0, "\(written.output)")
        for (index, frame) in frames.enumerated() {
            let reference = try registry.decode(Array(try Data(contentsOf: URL(fileURLWithPath: pngs.path(String(format: "frame-%03d.png", index))))))
            #expect(reference.size == frame.size)
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let a = frame.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                    #expect(a.a == b.a, "frame \(index) (\(x), \(y))")
                    if a.a == 255 { #expect(a == b, "frame \(index) (\(x), \(y))") }
                }
            }
        }
    }

    /// The sample GIF rewritten by gifsicle with another disposal on every frame after the first
    /// (its frames are 10×25 rectangles at (4, 0) with a transparent colour, so the disposal
    /// changes what shows), interlaced: composed as ImageMagick composes it. (The first frame keeps
    /// its own: "previous" on a first frame restores the empty canvas in browsers, the first frame
    /// in ImageMagick.)
    @Test("frames disposed of to the background or to the previous canvas, interlaced, compose as ImageMagick's -coalesce", arguments: [
        "background", "previous",
    ])
    func disposals(disposal: String) async throws {
        let folder = try TemporaryDirectory(prefix: "darkroom-disposal")
        let variant = folder.path("tiny-\(disposal).gif")
        let sample = Fixtures.path("../../Samples/tiny.gif")
        let made = try await ChildProcess.run(
            "/usr/bin/gifsicle",
            ["--interlace", sample, "#0", "--disposal=\(disposal)", sample, "#1-", "-o", variant])
        #expect(made.status == 0, "\(made.output)")
        let decoded = try registry.decode(Array(try Data(contentsOf: URL(fileURLWithPath: variant))))
        #expect(decoded.animation?.timings.dropFirst().allSatisfy { $0.disposal.rawValue == (disposal == "background" ? 2 : 3) } == true)
        let written = try await ChildProcess.run("/usr/bin/convert", [variant, "-coalesce", folder.path("frame-%03d.png")])
        #expect(written.status == 0, "\(written.output)")
        var differing = 0
        for (index, frame) in Self.frames(of: decoded).enumerated() {
            let png = folder.path(String(format: "frame-%03d.png", index))
            let reference = try registry.decode(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let a = frame.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                    if a.a != b.a || (a.a == 255 && a != b) { differing += 1 }
                }
            }
        }
        #expect(differing == 0)
    }

    @Test("a filter chain runs on every frame; the timing stays")
    func filtersEveryFrame() throws {
        let original = try Self.animation()
        let (filters, _) = try registry.chain(parsing: "aspect-fit(width=6,height=6)")
        let small = try FilterChain(filters).apply(to: original)
        #expect(small.animation?.frameCount == 3)
        #expect(Self.frames(of: small).allSatisfy { $0.size == PixelSize(width: 6, height: 4) })
        #expect(small.animation?.timings == original.animation?.timings)
        #expect(small.animation?.laterFrames[0].pixel(x: 1, y: 1) == RGBA(r: 0, g: 255, b: 0))
    }

    @Test("animated: false decodes the first frame alone; limits count frames and all their pixels")
    func optionsAndLimits() throws {
        let bytes = try registry.encode(try Self.animation(), options: EncodeOptions(format: .gif))
        let header = try ImageProbe.probe(bytes)
        let still = try registry.decoder(for: header, options: DecodeOptions(animated: false))
            .decode(bytes, header: header, options: DecodeOptions(animated: false))
        #expect(still.animation == nil)
        #expect(still.pixel(x: 0, y: 0) == RGBA(r: 255, g: 0, b: 0))

        var fewFrames = DecodeOptions()
        fewFrames.limits.maxFrames = 2
        #expect { try registry.decode(bytes, options: fewFrames) } throws: { error in
            "\(error)" == "GIF animation has 3 frames, more than the limit of 2 (max-frames)"
        }
        var fewPixels = DecodeOptions()
        fewPixels.limits.maxPixels = 200  // one 12×8 frame is 96 pixels; three are 288
        for format in [ImageFormat.gif, .webp] {
            let encoded = try registry.encode(try Self.animation(), options: EncodeOptions(format: format, lossless: true))
            #expect { try registry.decode(encoded, options: fewPixels) } throws: { error in
                "\(error)".contains("animation has 3 frames of 12×8, 288 pixels in all, more than the limit of 200 (max-pixels)")
            }
        }
    }

    @Test("an animation into JPEG or PNG is its first frame, and the render says so; into GIF and WebP it stays animated")
    func flattening() throws {
        let animated = try Self.animation()
        for format in [ImageFormat.jpeg, .png] {
            let encoder = try registry.encoder(for: format)
            let flattened = try #require(AnimationFlattening(image: animated, encoder: encoder))
            #expect("\(flattened)" == "3 frames; \(format.displayName) cannot animate, so the first frame was written")
            let bytes = try registry.encode(animated, options: EncodeOptions(format: format))
            #expect(try registry.decode(bytes).pixel(x: 0, y: 0).g < 30)
        }
        for format in [ImageFormat.gif, .webp] {
            #expect(AnimationFlattening(image: animated, encoder: try registry.encoder(for: format)) == nil)
        }
    }
}

// MARK: - Through both executors

@Suite("variants of an animated GIF render animated through the pipeline and the inline renderer alike; into JPEG the response says it was flattened")
struct AnimatedRenderTests {
    @Test("a GIF variant keeps every frame (same bytes through both executors); a JPEG variant is flagged as its first frame")
    func bothExecutors() async throws {
        let folder = try TemporaryDirectory(prefix: "darkroom-animation")
        let bytes = try Registry.standard.encode(try AnimationTests.animation(), options: EncodeOptions(format: .gif))
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("moving.gif")))
        let gif = PipelineFixture.target("small", ["aspect-fit(height=6,width=6)"], format: .gif)
        let jpeg = PipelineFixture.target("still", ["aspect-fit(height=6,width=6)"], format: .jpeg)
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(
            source: try FileSource(root: folder.url.path), targets: [gif, jpeg], memory: nil))
        let animated = try await pipeline.image(for: "moving.gif", variant: "small")
        #expect(animated.flattenedAnimation == nil)
        #expect(try ImageProbe.probe(animated.bytes).frameCount == 3)
        let decoded = try Registry.standard.decode(animated.bytes)
        #expect(decoded.size == PixelSize(width: 6, height: 4))
        #expect(decoded.animation?.timings.map(\.delay) == [100, 200, 300])
        let inline = try VariantRenderer(registry: PipelineFixture.registry).render(bytes, targets: [gif, jpeg])
        #expect(inline[0].bytes == animated.bytes)

        let still = try await pipeline.image(for: "moving.gif", variant: "still")
        #expect(still.format == .jpeg)
        #expect(still.flattenedAnimation == AnimationFlattening(frameCount: 3, format: .jpeg))
        #expect(inline[1].bytes == still.bytes)
    }
}
