import DarkroomCore

// MARK: - DecodeCost

/// How many bytes of pixels a decode's work will hold, estimated from the header and the size
/// hint before decoding — what the processing queue's memory budget counts. The decoder the
/// registry picks says what size it will decode to (JPEG shrinks on load by 1/2, 1/4 or 1/8).
///
/// The estimate is the decoded pixels and one working copy of the same size: a filter's
/// output beside its input, or an encoder's buffers. Measured with `darkroom convert` on a
/// 10000×10000 JPEG (400 MB of pixels): re-encoded as JPEG the process peaks at 1.73× the
/// pixels (libjpeg's optimised Huffman coding keeps the whole image's coefficients, 3 bytes a
/// pixel at 4:2:0), as PNG or TIFF at 1.05×. An animation kept whole counts every frame
/// (the probe's frame count).
enum DecodeCost {
    /// Bytes counted per decoded byte of pixels.
    static let workingFactor = 2

    static func estimatedBytes(header: ImageHeader, options: DecodeOptions, registry: Registry) -> Int {
        let size = (try? registry.decoder(for: header, options: options))?.decodedSize(for: header, options: options) ?? header.size
        let frames = options.animated ? max(1, header.frameCount ?? 1) : 1
        let (framePixels, overflow1) = size.width.multipliedReportingOverflow(by: size.height)
        let (pixels, overflow2) = framePixels.multipliedReportingOverflow(by: frames)
        let overflow = overflow1 || overflow2
        guard !overflow, pixels <= Int.max / (Image.bytesPerPixel * workingFactor) else { return Int.max / 2 }
        return max(1, pixels * Image.bytesPerPixel * workingFactor)
    }
}
