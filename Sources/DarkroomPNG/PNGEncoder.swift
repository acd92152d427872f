import CPNG
import DarkroomCore

// MARK: - PNGEncoder

/// Encodes an `Image` as an 8-bit PNG with libpng, keeping all 8 bits of alpha.
///
/// - Writes RGBA (colour type 6) when `image.hasAlpha`, otherwise RGB (colour type 2): the
///   alpha bytes are dropped by libpng as it reads the rows, without a converted copy.
/// - `options.compressionLevel` (0…9, default 6) is zlib's level. Row filters are chosen by
///   libpng per row from all five (its minimum-sum heuristic), except at level 0, where the
///   data is stored and filters would only cost time.
/// - ``interlaced`` writes Adam7 (progressive display in browsers; files are larger).
///
/// ```swift
/// let png = try PNGEncoder().encode(image, options: EncodeOptions(format: .png, compressionLevel: 9))
/// ```
public struct PNGEncoder: ImageEncoder {
    public let name = "libpng"
    public let format = ImageFormat.png
    /// libpng's default user limit on a written IHDR: a million pixels on a side.
    public let maximumSize: PixelSize? = PixelSize(width: 1_000_000, height: 1_000_000)
    /// Write an Adam7-interlaced PNG (default `false`).
    public var interlaced: Bool

    /// An encoder writing interlaced (Adam7) files when `interlaced` is `true`.
    public init(interlaced: Bool = false) {
        self.interlaced = interlaced
    }

    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        try options.validate()
        guard options.format == .png else {
            throw DarkroomError.invalidArgument(
                name: "format", value: options.format.rawValue, expected: "png for the libpng encoder")
        }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height),
            width <= UInt32(Int32.max), height <= UInt32(Int32.max)
        else {
            throw DarkroomError.encodeFailed(.png, detail: "\(image.size) is larger than PNG allows")
        }
        var settings = cpng_encode_settings(
            width: width, height: height, stride: image.bytesPerRow, write_alpha: image.hasAlpha ? 1 : 0,
            compression_level: Int32(options.effectiveCompressionLevel), interlaced: interlaced ? 1 : 0)
        var output = cpng_output()
        defer { cpng_output_free(&output) }
        var message = [CChar](repeating: 0, count: Int(CPNG_MESSAGE_CAPACITY))
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            cpng_encode_rgba(pixels.baseAddress, &settings, &output, &message)
        }
        guard status == CPNG_OK, let bytes = output.bytes else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PNGFailure.error(status, message: text, encoding: true)
        }
        return Array(UnsafeBufferPointer(start: bytes, count: output.count))
    }
}
