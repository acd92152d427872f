import DarkroomTestSupport
import Foundation
import Testing

// MARK: - darkroom probe

@Suite("darkroom probe prints JSON: one object per file, an array for several")
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

    @Test("one file: alpha, bit depth, ICC profile name and frames, in a fixed key order", arguments: [
        ("gradient-rgba16.png", #"{"format":"png","width":64,"height":48,"orientation":1,"alpha":true,"bitDepth":16,"iccProfile":null,"frames":1}"#),
        ("icc-adobe-rgb.png", #"{"format":"png","width":32,"height":24,"orientation":1,"alpha":false,"bitDepth":8,"iccProfile":"Adobe RGB (1998) primaries","frames":1}"#),
        ("icc-adobe-rgb.jpg", #"{"format":"jpeg","width":32,"height":24,"orientation":1,"alpha":false,"bitDepth":8,"iccProfile":"Adobe RGB (1998) primaries","frames":1}"#),
        ("animated-3-frames.gif", #"{"format":"gif","width":8,"height":6,"orientation":1,"alpha":true,"bitDepth":8,"iccProfile":null,"frames":3}"#),
        ("animated-2-frames.webp", #"{"format":"webp","width":8,"height":6,"orientation":1,"alpha":false,"bitDepth":8,"iccProfile":null,"frames":2}"#),
    ])
    func fields(file: String, expected: String) async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path(file)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == expected + "\n")
    }

    @Test("several files: a JSON array in argument order with each file named; --json is accepted")
    func severalFiles() async throws {
        let files = ["gradient.jpg", "animated-3-frames.gif", "icc-display-p3.png"].map(Fixtures.path)
        let outcome = try await CommandRunner.run(["probe", "--json"] + files)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["file"] as? String } == files)
        #expect(array.map { $0["frames"] as? Int } == [1, 3, 1])
        #expect(array[2]["iccProfile"] as? String == "Display P3 primaries")
        #expect(array[0]["iccProfile"] is NSNull)
    }

    @Test("several files with a bad one: the others are listed, the bad one is one error line, the status is its own")
    func severalWithFailure() async throws {
        let missing = Fixtures.path("does-not-exist.jpg")
        let outcome = try await CommandRunner.run(["probe", Fixtures.path("gradient.jpg"), missing, Fixtures.path("html.jpg")])
        #expect(outcome.status == 66)
        #expect(outcome.stderrLines.count == 2, "\(outcome.stderr)")
        #expect(outcome.stderrLines.first?.hasPrefix("darkroom: error: \(missing): ") == true, "\(outcome.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["file"] as? String } == [Fixtures.path("gradient.jpg")])
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
