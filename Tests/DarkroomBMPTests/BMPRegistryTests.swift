import Darkroom
import DarkroomBMP
import DarkroomCore
import DarkroomTestSupport
import Testing

// MARK: - The standard registry

@Suite("The standard registry decodes BMP with BMPDecoder, not libgd")
struct BMPRegistryTests {
    @Test("BMP headers go to darkroom-bmp, and libgd still encodes BMP")
    func picksBMPDecoder() throws {
        let header = try ImageProbe.probe(BMPFixtures.bytes("imagemagick-v5-rgba.bmp"))
        #expect(try Registry.standard.decoder(for: header, options: DecodeOptions()).name == "darkroom-bmp")
        #expect(try Registry.standard.encoder(for: .bmp).name == "libgd")
    }

    @Test("Registry.standard.decode keeps 8-bit alpha that libgd would drop or halve",
          arguments: ["imagemagick-v5-rgba.bmp", "pillow-rgba32.bmp"])
    func decodesThroughRegistry(name: String) throws {
        let image = try Registry.standard.decode(BMPFixtures.bytes(name))
        #expect(image == BMPFixtures.pattern(alpha: true))
    }

    @Test("the shared gradient.bmp decodes through the registry exactly")
    func sharedFixture() throws {
        #expect(try Registry.standard.decode(Fixtures.bytes("gradient.bmp")) == Pattern.gradient())
    }
}
