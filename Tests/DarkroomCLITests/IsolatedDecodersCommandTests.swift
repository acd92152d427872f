import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - $DARKROOM_ISOLATE_DECODERS through the binary

@Suite("darkroom decodes the formats $DARKROOM_ISOLATE_DECODERS names in worker processes, with the same output")
struct IsolatedDecodersCommandTests {
    @Test("convert writes the same PNG from AVIF, HEIF and TIFF with every format isolated as without")
    func sameOutput() async throws {
        let folder = try TemporaryDirectory()
        for name in ["gradient.avif", "gradient.heic", "gradient.tiff"] {
            let local = try await CommandRunner.run(["convert", Fixtures.path(name), "-o", folder.path("local.png")])
            #expect(local.status == 0, "\(local.stderr)")
            let isolated = try await CommandRunner.run(
                ["convert", Fixtures.path(name), "-o", folder.path("isolated.png")], environment: ["DARKROOM_ISOLATE_DECODERS": "all"])
            #expect(isolated.status == 0, "\(isolated.stderr)")
            #expect(FileManager.default.contentsEqual(atPath: folder.path("local.png"), andPath: folder.path("isolated.png")), "\(name)")
        }
    }

    @Test("a value naming no format stops the tool with its reason")
    func refused() async throws {
        let outcome = try await CommandRunner.run(["probe", Fixtures.path("gradient.jpg")], environment: ["DARKROOM_ISOLATE_DECODERS": "avif,jxl"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("$DARKROOM_ISOLATE_DECODERS: 'jxl' is not a format"), "\(outcome.stderr)")
    }
}
