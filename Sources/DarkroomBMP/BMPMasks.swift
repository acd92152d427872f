import DarkroomCore

// MARK: - BMPMasks

/// Where red, green, blue and alpha sit in a 16- or 32-bit pixel, and how each channel's
/// value becomes 8 bits.
///
/// A channel of any width (1…32 bits) is scaled so that its maximum is 255, with rounding:
/// `round(v · 255 / max)`, so a 5-bit 31 and a 6-bit 63 are both 255 and a 10-bit channel
/// loses only its low bits. A zero mask is an absent channel: colour 0, or no alpha.
///
/// ```swift
/// let rgb565 = try BMPMasks(red: 0xF800, green: 0x07E0, blue: 0x001F, alpha: 0, bitCount: 16)
/// rgb565.red.value(of: 0xF800)  // 255
/// ```
struct BMPMasks {
    var red: Channel
    var green: Channel
    var blue: Channel
    var alpha: Channel

    /// The masks of a 16-bit BI_RGB file: 5-5-5, the top bit unused.
    static let rgb555 = BMPMasks(uncheckedRed: 0x7C00, green: 0x03E0, blue: 0x001F, alpha: 0)
    /// The masks of a 32-bit BI_RGB file: B, G, R bytes, and the fourth byte taken as alpha
    /// (the decoder makes the image opaque when no pixel has a non-zero fourth byte).
    static let bgra = BMPMasks(uncheckedRed: 0x00FF_0000, green: 0x0000_FF00, blue: 0x0000_00FF, alpha: 0xFF00_0000)

    /// Masks read from a file; each must lie within the pixel's `bitCount` bits.
    /// - Throws: ``DarkroomError/corrupt(_:detail:)`` naming the mask that does not.
    init(red: Int, green: Int, blue: Int, alpha: Int, bitCount: Int) throws {
        let limit = bitCount >= 32 ? 0xFFFF_FFFF : (1 << bitCount) - 1
        for (name, mask) in [("red", red), ("green", green), ("blue", blue), ("alpha", alpha)] where mask & ~limit != 0 {
            throw DarkroomError.corrupt(
                .bmp, detail: "the \(name) mask 0x\(String(mask, radix: 16)) has bits beyond the \(bitCount)-bit pixel")
        }
        self.init(uncheckedRed: red, green: green, blue: blue, alpha: alpha)
    }

    private init(uncheckedRed red: Int, green: Int, blue: Int, alpha: Int) {
        self.red = Channel(mask: UInt32(truncatingIfNeeded: red))
        self.green = Channel(mask: UInt32(truncatingIfNeeded: green))
        self.blue = Channel(mask: UInt32(truncatingIfNeeded: blue))
        self.alpha = Channel(mask: UInt32(truncatingIfNeeded: alpha))
    }

    /// Whether the pixels carry alpha (a non-zero alpha mask).
    var hasAlpha: Bool { alpha.mask != 0 }

    /// The shifts of red, green, blue and alpha when each is a whole byte (alpha may be
    /// absent: shift 32), as in every 32-bit BI_RGB and most BI_BITFIELDS files; `nil` otherwise.
    var byteShifts: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)? {
        let colours = [red, green, blue]
        guard colours.allSatisfy({ $0.maximum == 0xFF }), alpha.maximum == 0xFF || alpha.mask == 0 else { return nil }
        return (red.shift, green.shift, blue.shift, alpha.mask == 0 ? 32 : alpha.shift)
    }

    /// The RGBA8 pixel for a stored 16/32-bit value (alpha 255 when there is no alpha mask).
    @inline(__always)
    func rgba(_ pixel: UInt32) -> UInt32 {
        let a = alpha.mask == 0 ? 255 : alpha.value(of: pixel)
        return BMPCanvas.pack(red.value(of: pixel), green.value(of: pixel), blue.value(of: pixel), a)
    }

    // MARK: - Channel

    /// One channel's mask, the shift to its lowest bit, and its scale to 8 bits.
    struct Channel {
        let mask: UInt32
        let shift: UInt32
        /// The largest value the channel holds (`mask >> shift`).
        let maximum: UInt32
        /// `value → 8 bits` for channels up to 16 bits wide (all real files); wider ones
        /// are scaled arithmetically.
        let table: [UInt8]

        init(mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask >> shift
            if maximum > 0, maximum <= 0xFFFF {
                let maximum = UInt64(maximum)
                table = (0...maximum).map { UInt8(($0 * 255 + maximum / 2) / maximum) }
            } else {
                table = []
            }
        }

        /// The channel's value in `pixel`, scaled to 0…255 (0 for an absent channel).
        @inline(__always)
        func value(of pixel: UInt32) -> UInt8 {
            let raw = (pixel & mask) >> shift
            if !table.isEmpty { return table[Int(raw)] }
            guard maximum > 0 else { return 0 }
            return UInt8((UInt64(raw) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }
}
