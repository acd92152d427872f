import Darkroom
import DarkroomSources
import DarkroomTestSupport
import DarkroomTools
import Testing

// MARK: - Paths named on a command line

@Suite("PathSource reads any local path and keys it as the inline renderer does")
struct PathSourceTests {
    @Test("the key and fingerprint are SourceReference.file's, so both executors share cache entries")
    func sameIdentity() async throws {
        let source = PathSource()
        let path = Fixtures.path("gradient.jpg")
        let reference = try SourceReference.file(path)
        let identity = try source.identity(for: path)
        #expect(identity.key == reference.key && identity.fingerprint == reference.fingerprint)
        let data = try await source.load(path)
        #expect(data.bytes == Fixtures.bytes("gradient.jpg") && data.key == reference.key)
    }

    @Test("plain paths only: URLs are left to their sources")
    func plainPathsOnly() {
        let source = PathSource()
        #expect(source.canLoad("photos/cat.jpg") && source.canLoad("/srv/cat.jpg") && source.canLoad("../cat.jpg"))
        #expect(!source.canLoad("http://127.0.0.1:9/cat.jpg") && !source.canLoad("s3://bucket/cat.jpg") && !source.canLoad(""))
    }

    @Test("a missing file, a folder and a file over the size limit are errors naming the path as written")
    func errorsNameThePath() async throws {
        let folder = try TemporaryDirectory(prefix: "darkroom-path-source")
        let missing = folder.path("none.jpg")
        #expect { try PathSource().identity(for: missing) } throws: { error in
            "\(error)".contains(missing) && "\(error)".contains("no such file")
        }
        await #expect { try await PathSource().load(folder.url.path) } throws: { error in
            "\(error)".contains("is a directory")
        }
        await #expect { try await PathSource(maxBytes: 10).load(Fixtures.path("gradient.jpg")) } throws: { error in
            if case DarkroomError.inputTooLarge = error { return true }
            return false
        }
    }
}
