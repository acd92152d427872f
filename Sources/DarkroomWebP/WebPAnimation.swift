import CWebP
import DarkroomCore

// MARK: - WebPAnimation

/// Animated WebP: every frame decoded and composed on the canvas (`WebPAnimDecoder`), and
/// animations written with `WebPAnimEncoder`.
///
/// - **Reading:** each frame's delay is the gap between its end timestamp and the one before;
///   its disposal comes from the demuxer's frame iterator; the loop count from the `ANIM`
///   chunk. The frame count and all frames' pixels are checked against the limits before the
///   first frame is decoded. With `options.animated` off, the first frame alone.
/// - **Writing:** every frame with the encode options (lossy quality or lossless), at its
///   timestamp; the encoder picks each frame's sub-rectangle, blending and disposal itself
///   (what it writes shows the same composed frames).
///
/// ```swift
/// let animated = try WebPAnimation.encode(image, options: EncodeOptions(format: .webp, quality: 75))
/// ```
enum WebPAnimation {
    // MARK: - Reading

    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, width: Int, height: Int, options: DecodeOptions
    ) throws -> Image {
        var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw DarkroomError.decodeFailed(.webp, detail: "libwebpdemux's ABI does not match its headers")
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
            throw DarkroomError.corrupt(.webp, detail: "libwebp cannot parse the animation (truncated or malformed)")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == width,
            Int(info.canvas_height) == height
        else {
            throw DarkroomError.corrupt(.webp, detail: "the animation's canvas size disagrees with its header")
        }
        let size = PixelSize(width: width, height: height)
        let frameCount = options.animated ? max(1, Int(info.frame_count)) : 1
        if frameCount > 1 { try options.limits.check(frames: frameCount, of: size, format: .webp) }
        let disposals = frameCount > 1 ? Self.disposals(WebPAnimDecoderGetDemuxer(decoder), count: frameCount) : []

        var frames: [Image] = []
        var timings: [FrameTiming] = []
        var previousTimestamp: Int32 = 0
        while frames.count < frameCount {
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                guard frames.isEmpty else {
                    let warning = DecodeWarning(
                        format: .webp, damage: .truncated,
                        detail: "frame \(frames.count + 1) of \(frameCount) of the animation cannot be decoded")
                    if options.stops(on: .truncated, warning: warning) { throw DarkroomError.truncated(.webp, detail: warning.detail) }
                    break
                }
                throw DarkroomError.corrupt(.webp, detail: "the first frame of the animation cannot be decoded")
            }
            // The canvas belongs to the animation decoder, so each frame is copied.
            let image = Image(width: width, height: height, hasAlpha: true) { pixels in
                pixels.baseAddress!.update(from: frame, count: pixels.count)
            }
            frames.append(image.withAlphaScanned())
            let disposal = frames.count <= disposals.count ? disposals[frames.count - 1] : .none
            timings.append(FrameTiming(delay: Int(timestamp - previousTimestamp), disposal: disposal))
            previousTimestamp = timestamp
        }
        var first = frames.removeFirst()
        if !frames.isEmpty {
            first.animation = try Animation(
                loopCount: Int(info.loop_count), timings: Array(timings.prefix(frames.count + 1)), laterFrames: frames, size: size)
        }
        return first
    }

    /// Each frame's disposal, read with the demuxer's frame iterator.
    private static func disposals(_ demuxer: OpaquePointer?, count: Int) -> [FrameDisposal] {
        guard let demuxer else { return [] }
        var result: [FrameDisposal] = []
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return [] }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            result.append(iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none)
        } while result.count < count && WebPDemuxNextFrame(&iterator) != 0
        return result
    }

    // MARK: - Writing

    static func encode(_ image: Image, config: WebPConfig) throws -> [UInt8] {
        guard let animation = image.animation else { throw DarkroomError.encodeFailed(.webp, detail: "the image is not animated") }
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw DarkroomError.encodeFailed(.webp, detail: "libwebpmux's ABI does not match its headers")
        }
        encoderOptions.anim_params.loop_count = Int32(clamping: animation.loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(image.width), Int32(image.height), &encoderOptions) else {
            throw DarkroomError.encodeFailed(.webp, detail: "out of memory for libwebp's animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = config
        var timestamp: Int32 = 0
        for (index, frame) in ([image.firstFrame] + animation.laterFrames).enumerated() {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else {
                throw DarkroomError.encodeFailed(.webp, detail: "libwebp's encoder ABI does not match its headers")
            }
            defer { WebPPictureFree(&picture) }
            picture.width = Int32(frame.width)
            picture.height = Int32(frame.height)
            picture.use_argb = 1
            let imported = frame.pixels.withUnsafeBufferPointer { pixels in
                WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(frame.bytesPerRow))
            }
            guard imported != 0 else { throw DarkroomError.encodeFailed(.webp, detail: "out of memory importing frame \(index + 1)") }
            guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw DarkroomError.encodeFailed(.webp, detail: "frame \(index + 1): \(Self.error(encoder))")
            }
            timestamp += Int32(clamping: max(1, animation.timings[index].delay))
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw DarkroomError.encodeFailed(.webp, detail: Self.error(encoder))
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw DarkroomError.encodeFailed(.webp, detail: Self.error(encoder))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private static func error(_ encoder: OpaquePointer) -> String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebp's animation encoder failed"
    }
}
