import DarkroomCore
import DarkroomWebP

// MARK: - Helpers for the WebP tests

/// Probes and decodes WebP bytes the way the registry does.
func decodeWebP(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
    let header = try ImageProbe.probe(bytes)
    return try WebPDecoder().decode(bytes, header: header, options: options)
}

func encodeWebP(_ image: Image, quality: Int? = nil, lossless: Bool = false) throws -> [UInt8] {
    try WebPEncoder().encode(image, options: EncodeOptions(format: .webp, quality: quality, lossless: lossless))
}

/// A 256×4 image whose alpha runs through every value 0…255 along x, with colour that differs
/// from pixel to pixel (also under alpha 0).
func alphaRamp() -> Image {
    Image(width: 256, height: 4, hasAlpha: true) { p in
        for y in 0..<4 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4
                p[i] = UInt8(x)
                p[i + 1] = UInt8(255 - x)
                p[i + 2] = UInt8((x * 7 + y * 31) & 255)
                p[i + 3] = UInt8(x)
            }
        }
    }
}

/// Only the alpha bytes of an image.
func alphaChannel(_ image: Image) -> [UInt8] {
    stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
}
