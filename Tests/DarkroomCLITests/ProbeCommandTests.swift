import DarkroomTestSupport
import Foundation
import Testing

// MARK: - darkroom probe

@Suite("darkroom probe prints one JSON object with the stored size")
struct ProbeCommandTests {
    @Test("a JPEG with orientation 6 reports its stored size and orientation")
    func orientedJPEG() async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path("orientation-6.jpg")])
        #expect(outcome.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "jpeg")
        #expect(object["width"] as? Int == 48)
        #expect(object["height"] as? Int == 64)
        #expect(object["orientation"] as? Int == 6)
        #expect(outcome.stdout.split(separator: "\n").count == 1)
    }

    @Test("formats come from bytes, not names", arguments: [
        ("gradient.heic", "heif"), ("gradient.avif", "avif"), ("gradient.tga", "tga"), ("blocks.gif", "gif"),
        ("gradient-lossy.webp", "webp"), ("gradient.tiff", "tiff"), ("gradient.bmp", "bmp"),
    ])
    func formats(file: String, format: String) async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path(file)])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#""format":"\#(format)""#))
    }

    @Test("a bomb is probed, not refused: probe reads only the header")
    func bombProbes() async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path("bomb-40000.png")])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#""width":40000"#))
    }

    @Test("HTML named .jpg fails with one clear line")
    func html() async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path("html.jpg")])
        #expect(outcome.status == 65)
        #expect(outcome.stderrLines.count == 1)
        #expect(outcome.stderr.hasPrefix("darkroom: error: \(Fixtures.path("html.jpg")): "))
        #expect(outcome.stderr.contains("HTML"))
    }
}
