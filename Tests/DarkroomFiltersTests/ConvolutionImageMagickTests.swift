import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Blur against ImageMagick

/// ImageMagick's `convert`, when installed (CI has it).
private let convert = "/usr/bin/convert"
private let hasConvert = FileManager.default.isExecutableFile(atPath: convert)

@Suite("Blur agrees with ImageMagick's -gaussian-blur")
struct ConvolutionImageMagickTests {
    /// ImageMagick writes 16-bit samples here (at 8 bits it truncates, which alone would cost
    /// ~51 dB), rounded to 8 bits by the reader. Measured PSNR against ImageMagick 6.9.11 Q16 on
    /// this 128×96 image: σ 1 → 74.7 dB, 2 → 68.1, 4 → 60.9, 8 → 61.3, 16 → 54.2. The remaining
    /// differences are the kernels' reach (ours stops at 3σ below σ = 6, ImageMagick picks its
    /// own width). Floor: 52 dB.
    @Test("convert -gaussian-blur 0xσ and blur(sigma=σ) agree to PSNR ≥ 52 dB",
          .enabled(if: hasConvert, "ImageMagick's \(convert) is not installed; skipping the comparison"),
          arguments: [1.0, 2, 4, 8, 16])
    func imageMagick(sigma: Double) async throws {
        let image = detailedImage(width: 128, height: 96)
        let folder = try TemporaryDirectory(prefix: "darkroom-blur")
        let input = folder.path("in.ppm"), output = folder.path("out.ppm")
        try Data(PPM.encode(image)).write(to: URL(fileURLWithPath: input))

        // ImageMagick runs on a thread of its own: waiting for it must not hold a pool thread.
        let status = try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: convert)
            process.arguments = [input, "-gaussian-blur", "0x\(sigma)", "-depth", "16", output]
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)

        let theirs = try PPM.decode16([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        let ours = try BlurFilter(sigma: sigma).apply(to: image)
        let psnr = ImageComparison.psnr(ours, theirs)
        #expect(psnr >= 52, "σ \(sigma): PSNR \(psnr) dB")
    }
}

// MARK: - PPM

/// Binary PPM (P6), the simplest format ImageMagick reads and writes.
private enum PPM {
    /// 8-bit P6 of the colour channels.
    static func encode(_ image: Image) -> [UInt8] {
        var bytes = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { bytes += image.pixels[i..<(i + 3)] }
        return bytes
    }

    /// Reads a P6 PPM with 16-bit samples (maxval 65535, big-endian), rounding each to 8 bits.
    static func decode16(_ bytes: [UInt8]) throws -> Image {
        // Three whitespace-separated header fields after "P6", then one whitespace byte.
        guard bytes.starts(with: Array("P6".utf8)) else {
            throw DarkroomError.unrecognizedFormat(hint: "ImageMagick did not write a P6 PPM")
        }
        var fields: [Int] = [], index = 2, current = ""
        while fields.count < 3, index < bytes.count {
            let c = Character(UnicodeScalar(bytes[index]))
            if c.isWhitespace {
                if !current.isEmpty { fields.append(Int(current) ?? -1); current = "" }
            } else {
                current.append(c)
            }
            index += 1
        }
        guard fields.count == 3, fields[2] == 65535 else {
            throw DarkroomError.invalidArgument(name: "PPM header", value: "\(fields)", expected: "width height 65535")
        }
        let (width, height) = (fields[0], fields[1])
        guard bytes.count - index >= width * height * 6 else {
            throw DarkroomError.invalidArgument(
                name: "PPM data", value: "\(bytes.count - index) bytes", expected: "\(width * height * 6) bytes")
        }
        return Image(width: width, height: height, hasAlpha: false) { p in
            for i in 0..<(width * height) {
                for c in 0..<3 {
                    let o = index + (i * 3 + c) * 2
                    let sample = Int(bytes[o]) << 8 | Int(bytes[o + 1])
                    p[i * 4 + c] = UInt8((sample * 2 + 257) / 514)  // round(sample / 257)
                }
                p[i * 4 + 3] = 255
            }
        }
    }
}
