import DarkroomCore
import Testing

// MARK: - Editing pixels

@Suite("Pixel editing builds a new image and keeps the alpha flag honest")
struct ImagePixelEditingTests {
    static let opaque = try! Image(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 255], hasAlpha: false)

    @Test("mappingPixels transforms each pixel; the original is unchanged")
    func mapping() {
        let inverted = Self.opaque.mappingPixels { p in RGBA(r: 255 - p.r, g: 255 - p.g, b: 255 - p.b, a: p.a) }
        #expect(inverted.pixel(x: 0, y: 0) == RGBA(r: 245, g: 235, b: 225))
        #expect(inverted.pixel(x: 1, y: 0) == RGBA(r: 215, g: 205, b: 195))
        #expect(Self.opaque.pixel(x: 0, y: 0) == RGBA(r: 10, g: 20, b: 30))
        #expect(!inverted.hasAlpha)
    }

    @Test("an edit that makes a pixel translucent makes an opaque image say it has alpha")
    func alphaFlag() {
        let faded = Self.opaque.editingPixels { bytes in bytes[3] = 128 }
        #expect(faded.hasAlpha)
        #expect(faded.pixel(x: 0, y: 0).a == 128)
        let same = Self.opaque.editingPixels { bytes in bytes[0] = 11 }
        #expect(!same.hasAlpha)
        #expect(same.pixel(x: 0, y: 0).r == 11)
    }

    @Test("an error thrown by the transform reaches the caller")
    func transformErrors() {
        struct Stop: Error {}
        #expect(throws: Stop.self) { try Self.opaque.mappingPixels { _ in throw Stop() } }
    }
}
