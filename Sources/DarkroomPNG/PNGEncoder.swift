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
        try encode(image, options: options, metadata: .none)
    }

    /// Writes the ICC profile as `iCCP` (left out, as libpng checks it, when it does not fit
    /// the colour type), EXIF as `eXIf` and XMP as an uncompressed `iTXt` chunk
    /// (`XML:com.adobe.xmp`), all before the image data.
    public func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8] {
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
        let icc = metadata.iccProfile ?? [], exif = metadata.exif ?? []
        // iTXt text is NUL-terminated: a packet is cut at a NUL, which XML text cannot hold.
        let xmp = metadata.xmp.map { $0.prefix { $0 != 0 } + [0] }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            icc.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exif in
                    (xmp ?? []).withUnsafeBufferPointer { xmpBytes in
                        xmpBytes.withMemoryRebound(to: CChar.self) { xmpText in
                            var written = cpng_metadata(
                                icc: icc.baseAddress, icc_count: icc.count, exif: exif.baseAddress, exif_count: exif.count,
                                xmp: xmp == nil ? nil : xmpText.baseAddress)
                            return cpng_encode_rgba_with_metadata(pixels.baseAddress, &settings, &written, &output, &message)
                        }
                    }
                }
            }
        }
        guard status == CPNG_OK, let bytes = output.bytes else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PNGFailure.error(status, message: text, encoding: true)
        }
        return Array(UnsafeBufferPointer(start: bytes, count: output.count))
    }

    public var writesMetadata: Bool { true }
}
