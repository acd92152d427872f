import DarkroomCore
import DarkroomGD
import DarkroomTestSupport
import Testing

@Suite("GDEncoder validates its options before calling libgd")
struct EncoderOptionsTests {
    let image = Pattern.gradient()

    @Test("quality outside 1…100 is refused", arguments: [ImageFormat.jpeg, .webp, .avif], [0, 101])
    func quality(_ format: ImageFormat, _ quality: Int) {
        #expect(throws: DarkroomError.invalidArgument(name: "quality", value: String(quality), expected: "an integer 1…100")) {
            try GDEncoder(format: format).encode(image, options: EncodeOptions(format: format, quality: quality))
        }
    }

    @Test("PNG compression level outside 0…9 is refused")
    func compressionLevel() {
        #expect(throws: DarkroomError.invalidArgument(name: "compression level", value: "10", expected: "an integer 0…9")) {
            try GDEncoder(format: .png).encode(image, options: EncodeOptions(format: .png, compressionLevel: 10))
        }
    }

    @Test("AVIF speed outside 0…10 is refused")
    func speed() {
        #expect(throws: DarkroomError.invalidArgument(name: "speed", value: "11", expected: "an integer 0…10")) {
            try GDEncoder(format: .avif).encode(image, options: EncodeOptions(format: .avif, speed: 11))
        }
    }

    @Test("options for another format are refused")
    func formatMismatch() {
        #expect(throws: DarkroomError.invalidArgument(name: "format", value: "png", expected: "jpeg for this encoder")) {
            try GDEncoder(format: .jpeg).encode(image, options: EncodeOptions(format: .png))
        }
    }

    @Test("formats libgd cannot write here are refused clearly", arguments: [ImageFormat.tga, .heif])
    func unsupported(_ format: ImageFormat) {
        #expect(!GDEncoder.supports(format))
        #expect(throws: DarkroomError.unsupportedFormat(format, reason: "this libgd build cannot write \(format.displayName)")) {
            try GDEncoder(format: format).encode(image, options: EncodeOptions(format: format))
        }
    }

    @Test("the seven libgd output formats are supported", arguments: [ImageFormat.jpeg, .png, .webp, .avif, .gif, .bmp, .tiff])
    func supported(_ format: ImageFormat) throws {
        #expect(GDEncoder.supports(format))
        let encoder = GDEncoder(format: format)
        #expect(encoder.name == "libgd" && encoder.format == format)
        // Settings that do not apply to the format are ignored, not errors.
        let bytes = try encoder.encode(image, options: EncodeOptions(format: format, quality: 50, compressionLevel: 1, speed: 10))
        #expect(try ImageProbe.probe(bytes).size == image.size)
    }
}
