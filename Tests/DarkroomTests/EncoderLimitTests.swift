import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - What an encoder cannot write is refused before decoding

@Suite("A render the encoder could not write is refused before its source is decoded")
struct EncoderLimitTests {
    /// A 1×2,000,000 BMP (8 MB): taller than PNG, JPEG, WebP and GIF allow.
    static let tallBMP: [UInt8] = {
        let image = Image(width: 1, height: 2_000_000, hasAlpha: false) { pixels in
            for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = 200; pixels[i + 1] = 100; pixels[i + 2] = 50; pixels[i + 3] = 255 }
        }
        return try! Registry.standard.encode(image, options: EncodeOptions(format: .bmp))
    }()

    @Test("a GIF taller than 65535 is an error, not a picture with its height wrapped (1×2,000,000 came out 1×33920)")
    func gifSideLimit() {
        let image = Image(width: 1, height: 70_000, hasAlpha: false) { _ in }
        #expect { try Registry.standard.encode(image, options: EncodeOptions(format: .gif)) } throws: { error in
            "\(error)" == "cannot encode GIF: 1×70000 is larger than GIF allows (65535×65535)"
        }
    }

    @Test("every format with a side limit refuses the tall image in convert without decoding it",
          arguments: [(ImageFormat.png, "1000000×1000000"), (.jpeg, "65500×65500"), (.webp, "16383×16383"), (.gif, "65535×65535")])
    func conversion(format: ImageFormat, limit: String) {
        let conversion = Conversion(input: "-", output: "out." + format.preferredFileExtension)
        #expect { try conversion.convert(Self.tallBMP, options: EncodeOptions(format: format), registry: .standard) } throws: { error in
            "\(error)" == "cannot encode \(format.displayName): 1×2000000 is larger than \(format.displayName) allows (\(limit))"
        }
    }

    @Test("a variant keeping the image whole as PNG fails before decoding; one that shrinks it renders")
    func variants() throws {
        let registry = Registry.standard
        let whole = RenderTarget(name: "whole", chain: FilterChain([try registry.filter(parsing: "grayscale")]), encoding: VariantEncoding(format: .png))
        let small = RenderTarget(
            name: "small", chain: FilterChain([try registry.filter(parsing: "aspect-fit(height=1000,width=1000)")]),
            encoding: VariantEncoding(format: .png))
        let counters = StageCounters()
        #expect { try VariantRenderer(registry: registry).render(Self.tallBMP, targets: [small, whole], counters: counters) } throws: { error in
            "\(error)".hasPrefix("cannot encode PNG: 1×2000000 is larger than PNG allows")
        }
        #expect(counters.decodes == 0)
        let rendered = try VariantRenderer(registry: registry).render(Self.tallBMP, targets: [small])
        #expect(try ImageProbe.probe(rendered[0].bytes).size == PixelSize(width: 1, height: 1000))
    }
}
