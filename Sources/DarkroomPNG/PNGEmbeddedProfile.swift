import CPNG
import DarkroomCore

// MARK: - PNGEmbeddedProfile

/// The ICC profile of a PNG's `iCCP` chunk, inflated by libpng: the PNG counterpart of
/// `EmbeddedICCProfile` (which reads the formats whose profiles are stored uncompressed).
///
/// ```swift
/// let name = PNGEmbeddedProfile.bytes(in: pngBytes).flatMap(ICCProfile.name(of:))  // "Display P3"
/// ```
public enum PNGEmbeddedProfile {
    /// The profile's bytes, or `nil` when the file has none, is not a PNG, or libpng dropped the
    /// profile as damaged. Reads the chunks before the image data only.
    public static func bytes(in png: [UInt8]) -> [UInt8]? {
        png.withUnsafeBytes { buffer -> [UInt8]? in
            guard let base = buffer.baseAddress, !buffer.isEmpty,
                let decoder = cpng_decoder_create(base, buffer.count, UInt32(Int32.max), UInt32(Int32.max))
            else { return nil }
            defer { cpng_decoder_destroy(decoder) }
            var info = cpng_info()
            guard cpng_decoder_read_info(decoder, &info) == CPNG_OK else { return nil }
            var bytes: UnsafePointer<UInt8>?
            var length = 0
            guard cpng_decoder_icc_profile(decoder, &bytes, &length) != 0, let bytes else { return nil }
            return Array(UnsafeBufferPointer(start: bytes, count: length))
        }
    }
}
