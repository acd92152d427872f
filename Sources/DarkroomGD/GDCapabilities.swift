import CGD
import DarkroomCore

// MARK: - GDCapabilities

/// What the libgd loaded into this process can read and write, worked out once (asking
/// loads libgd; both sets are empty when it is not installed).
///
/// `gdSupportsFileType` says which codecs libgd was *compiled* with. For HEIF and AVIF
/// that is not enough: libheif and libavif load their codecs separately, so a build can
/// know the container and still have no HEVC or AV1 decoder. Those two are asked
/// directly (through `dlsym` in libgd's scope, since libgd loaded them) whether a codec exists.
///
/// ```swift
/// GDCapabilities.readable.contains(.heif) // true when libheif has an HEVC decoder
/// ```
enum GDCapabilities {
    /// Formats libgd can decode here.
    static let readable: Set<ImageFormat> = Set(ImageFormat.allCases.filter { canRead($0) })

    /// Formats libgd can encode here (Darkroom encodes only those listed in ``encodable``).
    static let writable: Set<ImageFormat> = Set(ImageFormat.allCases.filter { canWrite($0) })

    /// The formats ``GDEncoder`` knows how to drive.
    static let encodable: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .gif, .bmp, .tiff]

    // MARK: - Probing

    private static func canRead(_ format: ImageFormat) -> Bool {
        guard gdSupports(format, writing: false) else { return false }
        switch format {
        case .heif: return libheifHasDecoder(compression: 1) ?? true  // heif_compression_HEVC
        case .avif: return libavifHasCodec(flags: 1) ?? true          // AVIF_CODEC_FLAG_CAN_DECODE
        default: return true
        }
    }

    private static func canWrite(_ format: ImageFormat) -> Bool {
        guard gdSupports(format, writing: true) else { return false }
        switch format {
        case .avif: return libavifHasCodec(flags: 2) ?? true          // AVIF_CODEC_FLAG_CAN_ENCODE
        default: return true
        }
    }

    private static func gdSupports(_ format: ImageFormat, writing: Bool) -> Bool {
        dr_gdSupportsFileType("x.\(format.preferredFileExtension)", writing ? 1 : 0) != 0
    }

    // MARK: - Codec libraries behind libgd

    /// `heif_have_decoder_for_format(compression)`, or `nil` when libheif is not loaded.
    private static func libheifHasDecoder(compression: Int32) -> Bool? {
        typealias Function = @convention(c) (Int32) -> Int32
        guard let symbol = loadedSymbol("heif_have_decoder_for_format") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)(compression) != 0
    }

    /// `avifCodecName(AVIF_CODEC_CHOICE_AUTO, flags) != NULL`, or `nil` when libavif is not loaded.
    private static func libavifHasCodec(flags: UInt32) -> Bool? {
        typealias Function = @convention(c) (Int32, UInt32) -> UnsafePointer<CChar>?
        guard let symbol = loadedSymbol("avifCodecName") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)(0, flags) != nil
    }

    /// A symbol from libgd or the libraries it loaded (libheif, libavif); `nil` without libgd.
    private static func loadedSymbol(_ name: String) -> UnsafeMutableRawPointer? {
        darkroom_gd_symbol(name)
    }
}
