import CJPEG
import DarkroomCore

// MARK: - JPEGEncoder

/// Encodes JPEG with libjpeg-turbo straight from the RGBA buffer.
///
/// - Translucent images are composited over white first.
/// - Chroma: 4:2:0 below quality 90, 4:4:4 at 90 and above. At high quality the point is
///   fidelity, and halving chroma resolution blurs red/blue edges and text more than the
///   quantiser does; below 90 the bytes saved by subsampling buy more than they cost.
/// - Progressive output uses libjpeg's standard scan script.
///
/// ```swift
/// let bytes = try JPEGEncoder().encode(image, options: EncodeOptions(format: .jpeg, quality: 85))
/// ```
public struct JPEGEncoder: ImageEncoder {
    /// Qualities at or above this keep full-resolution chroma (4:4:4).
    public static let fullChromaQuality = 90

    /// libjpeg's side limit (JPEG_MAX_DIMENSION): 65500 pixels.
    public let maximumSize: PixelSize? = PixelSize(width: 65_500, height: 65_500)

    /// Compute optimal Huffman tables: a few percent smaller, a little slower (for a full-size
    /// re-encode, about twice the encode's time and a buffer of every coefficient). The default
    /// for options that do not say (`EncodeOptions.optimizesCoding`). Progressive files always
    /// get them.
    public var optimizesCoding: Bool

    /// An encoder; `optimizesCoding` makes optimal Huffman tables (smaller files, a little slower).
    public init(optimizesCoding: Bool = true) {
        self.optimizesCoding = optimizesCoding
    }

    public var name: String { "libjpeg-turbo" }
    public var format: ImageFormat { .jpeg }

    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        try options.validate()
        guard options.format == .jpeg else {
            throw DarkroomError.invalidArgument(name: "format", value: options.format.rawValue, expected: "jpeg")
        }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw DarkroomError.encodeFailed(.jpeg, detail: "image size \(image.size) is too large")
        }
        let quality = options.effectiveQuality
        let settings = cjpeg_encode_options(
            quality: Int32(quality),
            progressive: options.progressive ? 1 : 0,
            optimize_coding: (options.optimizesCoding ?? optimizesCoding) ? 1 : 0,
            subsample_chroma: quality < Self.fullChromaQuality ? 1 : 0)

        let opaque = image.flattened()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: Int(CJPEG_MESSAGE_CAPACITY))
        let status = opaque.pixels.withUnsafeBufferPointer { pixels in
            cjpeg_encode_rgba(
                pixels.baseAddress, width, height, opaque.bytesPerRow, settings, &output, &outputSize, &message)
        }
        guard status == CJPEG_OK, let output else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw DarkroomError.encodeFailed(.jpeg, detail: "libjpeg-turbo: \(detail)")
        }
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// Writes EXIF, XMP and the ICC profile as APP1 and APP2 segments (see
    /// `JPEGMetadataSegments`); a part too large for JPEG's segments is left out.
    public func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8] {
        JPEGMetadataSegments.inserting(metadata, into: try encode(image, options: options))
    }

    public var writesMetadata: Bool { true }
}
