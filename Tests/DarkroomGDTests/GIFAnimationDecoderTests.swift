import DarkroomCore
@testable import DarkroomGD
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - The GIF frame reader on bad input

@Suite("the animated GIF reader refuses oversized frames, and reports cut data under the fail-on policy")
struct GIFAnimationDecoderTests {
    /// A two-frame 12×8 animation written by libgd's animation writer.
    static func twoFrames() throws -> [UInt8] {
        func solid(_ value: UInt8) throws -> Image {
            try Image(width: 12, height: 8, pixels: (0..<96).flatMap { _ in [value, value, value, 255] }, hasAlpha: false)
        }
        var first = try solid(255)
        first.animation = try Animation(
            loopCount: 0, timings: [FrameTiming(delay: 100), FrameTiming(delay: 100)], laterFrames: [try solid(9)], size: first.size)
        return try GDEncoder(format: .gif).encode(first, options: EncodeOptions(format: .gif))
    }

    func decode(_ bytes: [UInt8], failOn: FailOn = .default) throws -> Image {
        try GIFAnimationDecoder().decode(bytes, header: try ImageProbe.probe(bytes), options: DecodeOptions(failOn: failOn))
    }

    @Test("a frame whose rectangle claims 60000×60000 on a 12×8 screen is refused before its pixels are allocated")
    func oversizedFrame() throws {
        var bytes = try Self.twoFrames()
        let second = try #require(try GIFStream(bytes).frames.last).descriptorOffset
        for (offset, value) in [(5, 60_000), (7, 60_000)] {
            bytes[second + offset] = UInt8(value & 0xFF)
            bytes[second + offset + 1] = UInt8(value >> 8)
        }
        #expect(throws: DarkroomError.self) { try decode(bytes) }
        do {
            _ = try decode(bytes)
        } catch {
            #expect("\(error)".contains("a coded frame of 60000×60000"), "\(error)")
        }
    }

    @Test("data cut inside the second frame is truncation: refused by default, the whole first frame kept at fail-on none")
    func cutInSecondFrame() throws {
        let bytes = try Self.twoFrames()
        let second = try #require(try GIFStream(bytes).frames.last).descriptorOffset
        let cut = Array(bytes[..<(second + 14)])
        #expect(throws: DarkroomError.self) { try decode(cut) }
        let kept = try decode(cut, failOn: .none)
        #expect(kept.pixel(x: 0, y: 0) == RGBA(r: 255, g: 255, b: 255))
    }
}
