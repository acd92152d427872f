import DarkroomCore

// MARK: - Float rows

/// Moves one RGBA8 row to and from a row of `Float`s for the filters that average pixels.
///
/// A float row holds `channels` values per pixel: 4 (RGBA, colour premultiplied by alpha when
/// the image has alpha) or 3 (RGB only, for images known to be opaque, so averaging does no
/// work on an alpha channel that is 255 everywhere).
enum FloatRows {
    /// Writes `width` pixels of `source` (RGBA8, straight alpha) into `destination`.
    /// With `premultiply`, colour channels become `c · a / 255`; alpha stays in 0…255.
    static func load(
        _ source: UnsafePointer<UInt8>, width: Int, channels: Int, premultiply: Bool,
        into destination: UnsafeMutablePointer<Float>
    ) {
        if channels == 3 {
            var x = 0
            while x < width {
                destination[x * 3] = Float(source[x * 4])
                destination[x * 3 + 1] = Float(source[x * 4 + 1])
                destination[x * 3 + 2] = Float(source[x * 4 + 2])
                x += 1
            }
        } else if premultiply {
            var i = 0
            let count = width * 4
            while i < count {
                let a = Float(source[i + 3])
                let f = a * (1 / 255)
                destination[i] = Float(source[i]) * f
                destination[i + 1] = Float(source[i + 1]) * f
                destination[i + 2] = Float(source[i + 2]) * f
                destination[i + 3] = a
                i += 4
            }
        } else {
            var i = 0
            let count = width * 4
            while i < count {
                destination[i] = Float(source[i])
                i += 1
            }
        }
    }

    /// Writes `width` float pixels back as RGBA8, rounding and clamping; the inverse of ``load``.
    /// Three-channel rows get alpha 255. Premultiplied rows are divided by their alpha; a pixel
    /// whose alpha rounds to 0 becomes transparent black.
    static func store(
        _ source: UnsafePointer<Float>, width: Int, channels: Int, premultiplied: Bool,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        if channels == 3 {
            var x = 0
            while x < width {
                destination[x * 4] = roundedByte(source[x * 3])
                destination[x * 4 + 1] = roundedByte(source[x * 3 + 1])
                destination[x * 4 + 2] = roundedByte(source[x * 3 + 2])
                destination[x * 4 + 3] = 255
                x += 1
            }
        } else if premultiplied {
            var i = 0
            let count = width * 4
            while i < count {
                let a = source[i + 3]
                let alpha = roundedByte(a)
                if alpha == 0 {
                    destination[i] = 0; destination[i + 1] = 0; destination[i + 2] = 0; destination[i + 3] = 0
                } else {
                    let f = 255 / a
                    destination[i] = roundedByte(source[i] * f)
                    destination[i + 1] = roundedByte(source[i + 1] * f)
                    destination[i + 2] = roundedByte(source[i + 2] * f)
                    destination[i + 3] = alpha
                }
                i += 4
            }
        } else {
            var i = 0
            let count = width * 4
            while i < count {
                destination[i] = roundedByte(source[i])
                i += 1
            }
        }
    }
}

// MARK: - Rounding

/// `value` rounded to the nearest integer (ties to even) and clamped to 0…255, without the
/// trapping `UInt8(_:)` conversion, so loops that use it stay branch-free and vectorise.
/// Adding 1.5·2²³ moves the rounded integer into the low mantissa bits.
@inline(__always)
func roundedByte(_ value: Float) -> UInt8 {
    let clamped = value < 0 ? 0 : (value > 255 ? 255 : value)
    return UInt8(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
}

/// `value` rounded to the nearest integer and clamped to 0…65535, branch-free like ``roundedByte(_:)``.
@inline(__always)
func roundedUInt16(_ value: Float) -> UInt16 {
    let clamped = value < 0 ? 0 : (value > 65535 ? 65535 : value)
    return UInt16(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
}
