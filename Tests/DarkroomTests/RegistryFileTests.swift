import Darkroom
import DarkroomTestSupport
import Testing

// MARK: - Files through the registry

@Suite("The registry decodes a file and writes an encoded file, naming the path on failure")
struct RegistryFileTests {
    @Test("decode(file:) equals decoding the bytes; encode(_:options:toFile:) writes what encode returns")
    func roundTrip() throws {
        let folder = try TemporaryDirectory()
        let registry = Registry.standard
        let photo = try registry.decode(file: Fixtures.path("gradient.jpg"))
        #expect(photo == (try registry.decode(Fixtures.bytes("gradient.jpg"))))
        let path = folder.path("nested/out.png")
        try registry.encode(photo, options: EncodeOptions(format: .png), toFile: path)
        #expect(try FileBytes.read(path) == registry.encode(photo, options: EncodeOptions(format: .png)))
    }

    @Test("a missing file is an I/O error naming it")
    func missing() throws {
        do {
            _ = try Registry.standard.decode(file: "/nonexistent/darkroom/photo.jpg")
            Issue.record("a missing file decoded")
        } catch let DarkroomError.io(path, _) {
            #expect(path == "/nonexistent/darkroom/photo.jpg")
        }
    }

    @Test("a file over the input limit is refused before decoding")
    func limit() throws {
        var options = DecodeOptions()
        options.limits.maxInputBytes = 100
        #expect(throws: DarkroomError.self) { try Registry.standard.decode(file: Fixtures.path("gradient.jpg"), options: options) }
    }
}
