import CGD
import DarkroomCore

// MARK: - GDPixelConversion

/// Moves pixels between Darkroom's RGBA8 ``Image`` and libgd's `gdImage`, reading and
/// writing gd's row pointers directly (no per-pixel calls into libgd).
///
/// libgd keeps **7 bits of alpha**, inverted: 0 is opaque, 127 fully transparent.
/// - gd → Darkroom: `a8 = 255 − round(a7 · 255 / 127)`, exact at both ends.
/// - Darkroom → gd: `a7 = 127 − (a8 >> 1)`.
/// So an alpha value survives a trip through libgd within ±1 (the lost low bit); PNG and
/// WebP written by libgd keep 7 of 8 alpha bits. DarkroomPNG and DarkroomWebP keep all 8.
///
/// ```swift
/// let image = GDPixelConversion.image(from: gdImage)      // RGBA8, hasAlpha scanned
/// let gdImage = try GDPixelConversion.trueColorImage(from: image, format: .png)
/// ```
enum GDPixelConversion {
    /// gd's 7-bit alpha (index) → 8-bit straight alpha.
    static let alpha7To8: [UInt8] = (0...127).map { a in UInt8(255 - (a * 255 + 63) / 127) }

    // MARK: - gdImage → Image

    /// The RGBA8 copy of a gd image (true-colour or palette). `hasAlpha` is `true` only
    /// when some pixel is not fully opaque.
    static func image(from im: gdImagePtr) -> Image {
        let width = Int(im.pointee.sx), height = Int(im.pointee.sy)
        var translucent = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            let out = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
            translucent = im.pointee.trueColor != 0
                ? copyTrueColor(im, width: width, height: height, into: out)
                : copyPalette(im, width: width, height: height, into: out)
            count = width * height * 4
        }
        // Safe: the buffer holds exactly width × height × 4 bytes.
        return try! Image(width: width, height: height, pixels: pixels, hasAlpha: translucent)
    }

    /// Returns whether any pixel had gd alpha other than 0 (opaque).
    private static func copyTrueColor(
        _ im: gdImagePtr, width: Int, height: Int, into out: UnsafeMutableBufferPointer<UInt32>
    ) -> Bool {
        var alphaBits: UInt32 = 0
        alpha7To8.withUnsafeBufferPointer { table in
            for y in 0..<height {
                let row = im.pointee.tpixels[y]!
                let base = y * width
                for x in 0..<width {
                    let p = UInt32(bitPattern: row[x])
                    let a7 = (p >> 24) & 0x7F
                    alphaBits |= a7
                    let rgba = (p >> 16) & 0xFF | (p & 0xFF00) | (p & 0xFF) << 16 | UInt32(table[Int(a7)]) << 24
                    out[base + x] = rgba.littleEndian
                }
            }
        }
        return alphaBits != 0
    }

    /// Returns whether any pixel used a palette entry that is not fully opaque.
    private static func copyPalette(
        _ im: gdImagePtr, width: Int, height: Int, into out: UnsafeMutableBufferPointer<UInt32>
    ) -> Bool {
        let red = darkroom_gd_palette_red(im)!, green = darkroom_gd_palette_green(im)!
        let blue = darkroom_gd_palette_blue(im)!, alpha = darkroom_gd_palette_alpha(im)!
        let transparent = Int(im.pointee.transparent)
        var lookup = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            let a8 = i == transparent ? 0 : alpha7To8[Int(alpha[i] & 0x7F)]
            let rgba = UInt32(red[i] & 0xFF) | UInt32(green[i] & 0xFF) << 8 | UInt32(blue[i] & 0xFF) << 16
                | UInt32(a8) << 24
            lookup[i] = rgba.littleEndian
        }
        var alphaAnd: UInt32 = 0xFF
        lookup.withUnsafeBufferPointer { lut in
            for y in 0..<height {
                let row = im.pointee.pixels[y]!
                let base = y * width
                for x in 0..<width {
                    let rgba = lut[Int(row[x])]
                    alphaAnd &= UInt32(littleEndian: rgba) >> 24
                    out[base + x] = rgba
                }
            }
        }
        return alphaAnd != 0xFF
    }

    // MARK: - Image → gdImage

    /// A new true-colour gd image holding `image`'s pixels, with alpha blending off and
    /// "save alpha" set when the image has alpha. The caller destroys it.
    static func trueColorImage(from image: Image, format: ImageFormat) throws -> gdImagePtr {
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max),
              let im = dr_gdImageCreateTrueColor(Int32(image.width), Int32(image.height))
        else {
            throw DarkroomError.encodeFailed(
                format, detail: "libgd cannot allocate a \(image.width)x\(image.height) image")
        }
        dr_gdImageAlphaBlending(im, 0)
        dr_gdImageSaveAlpha(im, image.hasAlpha ? 1 : 0)
        let width = image.width
        image.pixels.withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt32.self)
            for y in 0..<image.height {
                let row = im.pointee.tpixels[y]!
                let base = y * width
                for x in 0..<width {
                    let p = UInt32(littleEndian: source[base + x])
                    let a7 = 127 - (p >> 25)
                    let argb = a7 << 24 | (p & 0xFF) << 16 | (p & 0xFF00) | (p >> 16) & 0xFF
                    row[x] = Int32(bitPattern: argb)
                }
            }
        }
        return im
    }
}
