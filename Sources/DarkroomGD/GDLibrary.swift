import CGD
import DarkroomCore

// MARK: - GDLibrary

/// libgd, loaded on first use.
///
/// CGD does not link libgd: the first call that needs it `dlopen`s `libgd.so.3` (and the
/// eighty-odd libraries behind it), so programs that never touch GIF, BMP, TIFF, TGA, AVIF
/// or HEIF never pay for mapping them. When libgd is not installed, decoding and encoding
/// throw ``DarkroomError/unsupportedFormat(_:reason:)`` with an install hint.
///
/// ```swift
/// try GDLibrary.require(.gif)   // throws when libgd.so.3 cannot be loaded
/// ```
enum GDLibrary {
    /// Why libgd cannot be used here, or `nil` when it is loaded (asked once; loads it).
    static let unavailableReason: String? = {
        var why = [CChar](repeating: 0, count: 512)
        guard darkroom_gd_available(&why, why.count) == 0 else { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Whether libgd is loaded (loads it on the first call).
    static var isAvailable: Bool { unavailableReason == nil }

    /// Throws when libgd cannot be loaded, naming `format` and how to install libgd.
    static func require(_ format: ImageFormat) throws {
        guard let why = unavailableReason else { return }
        throw missing(format, why: why)
    }

    /// The error for `format` when libgd could not be loaded because of `why`.
    static func missing(_ format: ImageFormat, why: String) -> DarkroomError {
        .unsupportedFormat(
            format, reason: "libgd (\(DARKROOM_LIBGD_SONAME)) is not installed: apt-get install libgd3 (\(why))")
    }
}
