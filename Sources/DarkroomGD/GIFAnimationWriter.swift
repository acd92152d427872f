import CGD
import DarkroomCore

// MARK: - GIFAnimationWriter

/// Writes an animated image as an animated GIF with libgd's animation writer: each frame
/// whole, with its own colour table (``GIFPalette``: exact up to 256 colours, else
/// quantised), its delay (in GIF's hundredths of a second), its disposal, and the loop
/// count (an animation that plays once is written without the NETSCAPE2.0 extension, as
/// GIFs that play once are).
///
/// Frames are whole canvases, so a frame's disposal only matters where the next frame is
/// transparent: there the viewer shows what the disposal left. The frame's own disposal is
/// kept unless it would show through — the next frame transparent where this one is not
/// (`none`), or anywhere (`previous`) — and then it is written as `background`.
///
/// ```swift
/// let bytes = try GIFAnimationWriter.write(animatedImage)
/// ```
enum GIFAnimationWriter {
    static func write(_ image: Image) throws -> [UInt8] {
        guard let animation = image.animation else { throw DarkroomError.encodeFailed(.gif, detail: "the image is not animated") }
        let frames = [image.firstFrame] + animation.laterFrames
        var output: [UInt8] = []
        let (failure, messages) = GDDiagnostics.capturing { () -> String? in
            do {
                for (index, frame) in frames.enumerated() {
                    let im = try GIFPalette.paletteImage(from: frame)
                    defer { dr_gdImageDestroy(im) }
                    var size: Int32 = 0
                    if index == 0 {
                        let loops: Int32 = animation.loopCount == 1 ? -1 : Int32(clamping: animation.loopCount)
                        guard append(dr_gdImageGifAnimBeginPtr(im, &size, 0, loops), size, to: &output) else {
                            return "libgd could not start the animation"
                        }
                    }
                    let timing = animation.timings[index]
                    let delay = Int32(clamping: (timing.delay + 5) / 10)
                    let next = index + 1 < frames.count ? frames[index + 1] : nil
                    let disposal = Int32(Self.disposal(timing.disposal, of: frame, before: next).rawValue)
                    guard append(dr_gdImageGifAnimAddPtr(im, &size, 1, 0, 0, delay, disposal, nil), size, to: &output) else {
                        return "libgd could not write frame \(index + 1)"
                    }
                }
                var size: Int32 = 0
                guard append(dr_gdImageGifAnimEndPtr(&size), size, to: &output) else { return "libgd could not end the animation" }
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure { throw DarkroomError.encodeFailed(.gif, detail: GDDiagnostics.detail(messages, fallback: failure)) }
        return output
    }

    /// `kept` unless it would let this frame show through a transparent pixel of `next`.
    static func disposal(_ kept: FrameDisposal, of frame: Image, before next: Image?) -> FrameDisposal {
        guard let next, kept != .background, next.hasAlpha else { return kept }
        let showsThrough: Bool = next.pixels.withUnsafeBufferPointer { after in
            frame.pixels.withUnsafeBufferPointer { before in
                var i = 3
                while i < after.count {
                    if after[i] < 128, kept == .previous || before[i] >= 128 { return true }
                    i += 4
                }
                return false
            }
        }
        return showsThrough ? .background : kept
    }

    /// Appends libgd's output buffer (and frees it); `false` when libgd gave none.
    private static func append(_ written: UnsafeMutableRawPointer?, _ size: Int32, to output: inout [UInt8]) -> Bool {
        guard let written else { return false }
        defer { dr_gdFree(written) }
        output.append(contentsOf: UnsafeRawBufferPointer(start: written, count: Int(max(0, size))))
        return size > 0
    }
}
