import DarkroomCore
import DarkroomTestSupport
import DarkroomFilters
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Resizing matches ImageMagick's Lanczos and really filters")
struct ResizeQualityTests {
    static let imageMagick = "/usr/bin/convert"

    @Test(
        "Lanczos3 640×480 → 160×120 matches ImageMagick -filter Lanczos (PSNR ≥ 40 dB)",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: imageMagick),
            "skipped: ImageMagick's /usr/bin/convert is not installed (CI installs imagemagick)"))
    func matchesImageMagick() async throws {
        let source = Pattern.photo(width: 640, height: 480)
        let size = PixelSize(width: 160, height: 120)
        let reference = try await Self.imageMagickResize(source, to: size)
        let ours = try Resampler.resize(source, to: size, kernel: .lanczos3)
        let psnr = ImageComparison.psnr(ours, reference)
        #expect(psnr >= 40, "PSNR \(psnr) dB against ImageMagick")
    }

    @Test(
        "Lanczos3 2.5× up matches ImageMagick -filter Lanczos (PSNR ≥ 40 dB)",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: imageMagick),
            "skipped: ImageMagick's /usr/bin/convert is not installed (CI installs imagemagick)"))
    func matchesImageMagickEnlarging() async throws {
        let source = Pattern.photo(width: 64, height: 48)
        let size = PixelSize(width: 160, height: 120)
        let reference = try await Self.imageMagickResize(source, to: size)
        let psnr = ImageComparison.psnr(try Resampler.resize(source, to: size), reference)
        #expect(psnr >= 40, "PSNR \(psnr) dB against ImageMagick")
    }

    @Test("Lanczos3 is far closer to the ideal downscale of fine detail than point sampling")
    func filtersHighFrequencies() throws {
        // A smooth ramp plus a 1-pixel-period stripe of ±60: shrunk 4×, the stripes must
        // average away, leaving the ramp; point sampling keeps one phase of them instead.
        let source = TestImages.grey(width: 256, height: 64) { x, _ in
            UInt8(64 + x / 4 + (x % 2 == 0 ? 60 : -60))
        }
        let size = PixelSize(width: 64, height: 16)
        // Over each output column's 4 source columns the stripes cancel and the ramp is 64 + x.
        let ideal = TestImages.grey(width: 64, height: 16) { x, _ in UInt8(64 + x) }
        let lanczos = try Resampler.resize(source, to: size, kernel: .lanczos3)
        let point = TestImages.pointSampled(source, to: size)
        let lanczosPSNR = ImageComparison.psnr(lanczos, ideal)
        let pointPSNR = ImageComparison.psnr(point, ideal)
        #expect(lanczosPSNR >= 35, "Lanczos3 PSNR \(lanczosPSNR) dB")
        #expect(pointPSNR <= 15, "point sampling PSNR \(pointPSNR) dB")
        #expect(lanczosPSNR - pointPSNR >= 20)
    }

    // MARK: - ImageMagick

    /// Runs `convert in.ppm -filter Lanczos -resize WxH! out.ppm` on the RGB of `image`, on a
    /// thread of its own (waiting for a child process must not hold a cooperative pool thread).
    static func imageMagickResize(_ image: Image, to size: PixelSize) async throws -> Image {
        let folder = try TemporaryDirectory(prefix: "darkroom-resample")
        let input = folder.path("in.ppm"), output = folder.path("out.ppm")
        try Netpbm.ppm(image).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: imageMagick)
        process.arguments = [input, "-filter", "Lanczos", "-resize", "\(size.width)x\(size.height)!",
                             "-depth", "8", output]
        let status = try await onOwnThread {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(status == 0, "convert exited with \(status)")
        return try Netpbm.image(fromPPM: try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
