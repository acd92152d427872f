import CTIFF
import DarkroomCore

// MARK: - TIFFEncoder

/// Encodes an `Image` as an 8-bit TIFF with libtiff, keeping all 8 bits of alpha.
///
/// - RGB, or RGBA with *unassociated* (straight) alpha when `image.hasAlpha`: the file's
///   ExtraSamples tag says so, and the colours are stored as they are.
/// - Lossless: Deflate (zlib level 6) with the horizontal predictor, in strips of about 64 KiB.
///   A file that would come out smaller than one uncompressed row (a very wide, flat strip of an
///   image) is written uncompressed instead: ImageMagick 6 refuses such files as cut short.
/// - An output that could pass 4 GiB is written as BigTIFF.
///
/// ```swift
/// let tiff = try TIFFEncoder().encode(image, options: EncodeOptions(format: .tiff))
/// ```
public struct TIFFEncoder: ImageEncoder {
    public let name = "libtiff"
    public let format = ImageFormat.tiff

    /// The encoder (it holds no state; libtiff is loaded once, when first needed).
    public init() {}

    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        try options.validate()
        guard options.format == .tiff else {
            throw DarkroomError.invalidArgument(name: "format", value: options.format.rawValue, expected: "tiff for the libtiff encoder")
        }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw DarkroomError.encodeFailed(.tiff, detail: "\(image.size) is larger than TIFF allows")
        }
        let deflated = try Self.write(image, width: width, height: height, level: 6)
        let rowBytes = image.width * (image.hasAlpha ? 4 : 3)
        return deflated.count >= rowBytes ? deflated : try Self.write(image, width: width, height: height, level: 0)
    }

    /// The file at zlib `level` (0: uncompressed).
    private static func write(_ image: Image, width: UInt32, height: UInt32, level: Int32) throws -> [UInt8] {
        // Classic TIFF addresses 4 GiB; leave room for the directory and incompressible data.
        let big = image.byteCount > 3_500_000_000
        var output = ctiff_output()
        defer { ctiff_output_free(&output) }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            ctiff_encode_rgba(pixels.baseAddress, width, height, image.bytesPerRow, image.hasAlpha ? 1 : 0, level, big ? 1 : 0, &output)
        }
        guard status == CTIFF_OK, let data = output.data else {
            let message = withUnsafeBytes(of: output.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let detail = message.isEmpty ? "libtiff failed without a message" : message
            throw status == CTIFF_UNSUPPORTED
                ? DarkroomError.unsupportedFormat(.tiff, reason: detail) : DarkroomError.encodeFailed(.tiff, detail: detail)
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}
