import DarkroomCore

// MARK: - GIFAnimationDecoder

/// Decodes every frame of an animated GIF (Darkroom's own LZW reader; libgd reads first
/// frames only), each composed on the logical screen as browsers show it.
///
/// - **Taken:** GIFs whose probe counts more than one frame, when `options.animated` is set;
///   a still GIF, or `animated: false`, is left to ``GDDecoder`` (its first frame).
/// - **Composition:** the canvas starts transparent; each frame is drawn over it (its
///   transparent index left out), the result is the frame, then its disposal clears the
///   frame's area or restores the canvas before it (a first frame's "previous" restores the
///   empty canvas, as browsers do; ImageMagick keeps the frame). Delays (hundredths of a second, kept
///   as milliseconds), disposals and the loop count go into `Image.animation`.
/// - **Limits:** the frame count and all frames' pixels together are checked
///   (`DecodeLimits.check(frames:of:format:)`) before any pixel is allocated, and each
///   frame's own rectangle against the pixel limit.
/// - **Damage:** a frame whose data ends early, or a file that ends before its trailer, is
///   *truncated* under the fail-on policy: let through, the frames read so far are kept (a
///   cut frame's missing pixels left as they were) and a warning is reported.
///
/// ```swift
/// let gif = try GIFAnimationDecoder().decode(bytes, header: try ImageProbe.probe(bytes), options: DecodeOptions())
/// gif.animation?.frameCount  // 24
/// ```
public struct GIFAnimationDecoder: ImageDecoder {
    public let name = "darkroom-gif"

    /// The decoder; it holds no state.
    public init() {}

    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        header.format == .gif && options.animated && (header.frameCount ?? 1) > 1
    }

    /// `nil`: every decode is full size.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? { nil }

    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try options.checkLimits(byteCount: bytes.count, header: header)
        let stream = try GIFStream(bytes)
        let size = PixelSize(width: stream.screenWidth, height: stream.screenHeight)
        guard size.width > 0, size.height > 0 else {
            throw DarkroomError.invalidDimensions(.gif, width: size.width, height: size.height)
        }
        try options.limits.check(frames: stream.frames.count, of: size, format: .gif)
        guard !stream.frames.isEmpty else { throw DarkroomError.truncated(.gif, detail: "the data ends before the first frame") }

        var canvas = GIFCanvas(size: size)
        var images: [Image] = []
        var timings: [FrameTiming] = []
        for (number, frame) in stream.frames.enumerated() {
            let pixelCount = frame.width * frame.height
            // A frame's own rectangle may claim more than the screen: its indices are decoded
            // whole (then clipped), so it is held to the pixel limit as a coded frame is.
            if pixelCount > options.limits.maxPixels {
                throw DarkroomError.frameTooLarge(
                    .gif, width: size.width, height: size.height, frame: PixelSize(width: frame.width, height: frame.height),
                    limit: options.limits.maxPixels)
            }
            let (indices, decoded) = try GIFLZW.decode(
                bytes, ranges: frame.dataRanges, minimumCodeSize: frame.minimumCodeSize, pixelCount: pixelCount)
            let cut = decoded < pixelCount || frame.isCut
            if cut {
                let warning = DecodeWarning(
                    format: .gif, damage: .truncated,
                    detail: "frame \(number + 1) of \(stream.frames.count) ends before its last pixel")
                if options.stops(on: .truncated, warning: warning) { throw DarkroomError.truncated(.gif, detail: warning.detail) }
            }
            guard !frame.palette.isEmpty else {
                throw DarkroomError.corrupt(.gif, detail: "frame \(number + 1) has no colour table, and the file no global one")
            }
            let saved = frame.disposal == 3 ? canvas.pixels : nil
            canvas.draw(frame, indices: indices, drawnPixels: decoded)
            images.append(canvas.image())
            timings.append(FrameTiming(delay: frame.delay * 10, disposal: FrameDisposal(rawValue: frame.disposal) ?? .none))
            switch frame.disposal {
            case 2: canvas.clear(frame)
            case 3: if let saved { canvas.pixels = saved }
            default: break
            }
            if cut { break }
        }
        if stream.isTruncated, !(stream.frames.last?.isCut ?? false) {
            // Cut inside a block after the last whole frame (a frame's descriptor or colour table).
            let warning = DecodeWarning(
                format: .gif, damage: .truncated, detail: "the data ends inside a block after frame \(images.count)")
            if options.stops(on: .truncated, warning: warning) { throw DarkroomError.truncated(.gif, detail: warning.detail) }
        }
        var first = images.removeFirst()
        if !images.isEmpty {
            first.animation = try Animation(loopCount: stream.loopCount, timings: timings, laterFrames: images, size: size)
        }
        return first
    }
}

// MARK: - GIFCanvas

/// The logical screen frames are drawn on, RGBA, starting transparent.
struct GIFCanvas {
    let size: PixelSize
    var pixels: [UInt8]

    init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
    }

    /// Draws the frame's first `drawnPixels` indices (row by row, de-interlaced), clipped to
    /// the screen; the transparent index is left out, an index past the palette is black.
    mutating func draw(_ frame: GIFStream.Frame, indices: [UInt8], drawnPixels: Int) {
        let palette = Array(frame.palette)
        let colours = palette.count / 3
        let transparent = frame.transparentIndex ?? -1
        let rows = GIFCanvas.rowOrder(height: frame.height, interlaced: frame.interlaced)
        let screenWidth = size.width
        let screenHeight = size.height
        pixels.withUnsafeMutableBufferPointer { out in
            indices.withUnsafeBufferPointer { source in
                for (stored, row) in rows.enumerated() where stored * frame.width < drawnPixels {
                    let y = frame.top + row
                    guard y < screenHeight else { continue }
                    let start = stored * frame.width
                    let count = min(frame.width, drawnPixels - start)
                    for x in 0..<count {
                        let screenX = frame.left + x
                        guard screenX < screenWidth else { break }
                        let index = Int(source[start + x])
                        if index == transparent { continue }
                        let o = (y * screenWidth + screenX) * 4
                        if index < colours {
                            out[o] = palette[index * 3]
                            out[o + 1] = palette[index * 3 + 1]
                            out[o + 2] = palette[index * 3 + 2]
                        } else {
                            out[o] = 0
                            out[o + 1] = 0
                            out[o + 2] = 0
                        }
                        out[o + 3] = 255
                    }
                }
            }
        }
    }

    /// Clears the frame's area (clipped to the screen) to transparent.
    mutating func clear(_ frame: GIFStream.Frame) {
        let right = min(size.width, frame.left + frame.width), bottom = min(size.height, frame.top + frame.height)
        guard frame.left < right, frame.top < bottom else { return }
        for y in frame.top..<bottom {
            let start = (y * size.width + frame.left) * 4
            pixels.withUnsafeMutableBufferPointer { out in
                (out.baseAddress! + start).update(repeating: 0, count: (right - frame.left) * 4)
            }
        }
    }

    /// The canvas now, as an image (`hasAlpha` from its pixels).
    func image() -> Image {
        // Safe: the buffer is the screen's size.
        try! Image(width: size.width, height: size.height, pixels: pixels, hasAlpha: true).withAlphaScanned()
    }

    /// The screen row of each stored row: in order, or GIF's four interlace passes.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
            + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
    }
}
