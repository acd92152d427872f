import DarkroomCore
import DarkroomPNG

// MARK: - Helpers for the PNG tests

/// Probes and decodes PNG bytes the way the registry does.
func decodePNG(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
    let header = try ImageProbe.probe(bytes)
    return try PNGDecoder().decode(bytes, header: header, options: options)
}

/// Encodes with default or given settings.
func encodePNG(_ image: Image, level: Int? = nil, interlaced: Bool = false) throws -> [UInt8] {
    try PNGEncoder(interlaced: interlaced).encode(image, options: EncodeOptions(format: .png, compressionLevel: level))
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

/// PNG's IHDR fields at fixed offsets: colour type (byte 25) and interlace method (byte 28).
func pngColorType(_ bytes: [UInt8]) -> UInt8 { bytes[25] }
func pngInterlaceMethod(_ bytes: [UInt8]) -> UInt8 { bytes[28] }

/// The byte offset of the first chunk of `type`, or nil.
func pngChunkOffset(_ bytes: [UInt8], type: String) -> Int? {
    var offset = 8
    while offset + 8 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { return offset }
        offset += 12 + length
    }
    return nil
}

