import DarkroomCore
import Foundation

// MARK: - PPM files for comparing with ImageMagick

/// Writes and reads binary PPM (P6, 8-bit) so tests can hand pixels to `convert`.
enum Netpbm {
    /// The RGB channels of `image` as a P6 file.
    static func ppm(_ image: Image) -> Data {
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        var rgb = [UInt8]()
        rgb.reserveCapacity(image.width * image.height * 3)
        for i in Swift.stride(from: 0, to: image.pixels.count, by: 4) {
            rgb.append(contentsOf: image.pixels[i..<i + 3])
        }
        data.append(contentsOf: rgb)
        return data
    }

    /// Parses an 8-bit P6 file (no comments) into an opaque image.
    static func image(fromPPM data: Data) throws -> Image {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                || bytes[index] == 0x09 { index += 1 }
            let start = index
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                || bytes[index] == 0x09) { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1  // the single whitespace byte before the raster
        guard fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
            bytes.count - index == width * height * 3
        else {
            throw DarkroomError.invalidArgument(name: "PPM file", value: "\(fields)", expected: "an 8-bit P6 raster")
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            for c in 0..<3 { rgba[p * 4 + c] = bytes[index + p * 3 + c] }
        }
        return try Image(width: width, height: height, pixels: rgba, hasAlpha: false)
    }
}
