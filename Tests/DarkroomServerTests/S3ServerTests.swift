import DarkroomTestSupport
import Foundation
import Testing

// MARK: - s3:// sources through darkroom-server

@Suite("darkroom-server renders s3:// sources from the buckets [sources.s3] allows")
struct S3ServerTests {
    @Test("an allowed bucket's object is rendered; another bucket is 403, a missing key 404, a wrong secret 403")
    func s3Sources() async throws {
        let s3 = try await LoopbackS3.launch(bucket: "photos", objects: ["cats/tom.jpg": Fixtures.path("gradient.jpg")])
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-s3-config")
        try (ServerFixture.configurationText + """

            [sources.s3]
            endpoint = "\(s3.endpoint)"
            buckets = ["photos"]
            access-key-env = "TEST_S3_ACCESS_KEY"
            secret-key-env = "TEST_S3_SECRET_KEY"
            retries = 0
            """).write(toFile: config.path("10-s3.toml"), atomically: true, encoding: .utf8)
        let arguments = ["--config", config.url.path, "--root", fixture.root.url.path, "--no-remote"]
        let server = try await ServerProcess.start(
            arguments, environment: ["TEST_S3_ACCESS_KEY": s3.accessKey, "TEST_S3_SECRET_KEY": s3.secretKey])
        let image = try await RawHTTPClient.send("GET", "/thumb/s3%3A%2F%2Fphotos%2Fcats%2Ftom.jpg", port: server.port)
        #expect(image.status == 200, "\(image.text)")
        #expect(image.header("content-type") == "image/jpeg")
        let other = try await RawHTTPClient.send("GET", "/thumb/s3%3A%2F%2Fsecrets%2Fkey.jpg", port: server.port)
        #expect(other.status == 403 && other.text.contains("not in buckets"), "\(other.text)")
        let missing = try await RawHTTPClient.send("GET", "/thumb/s3%3A%2F%2Fphotos%2Fnope.jpg", port: server.port)
        #expect(missing.status == 404 && missing.text.contains("NoSuchKey"), "\(missing.text)")
        _ = try await server.stop()

        let wrong = try await ServerProcess.start(
            arguments, environment: ["TEST_S3_ACCESS_KEY": s3.accessKey, "TEST_S3_SECRET_KEY": "wrong-secret-0000"])
        // (Another variant: the first server's renders are in the test process's disk cache.)
        let refused = try await RawHTTPClient.send("GET", "/square/s3%3A%2F%2Fphotos%2Fcats%2Ftom.jpg", port: wrong.port)
        #expect(refused.status == 403 && refused.text.contains("SignatureDoesNotMatch"), "\(refused.text)")
        _ = try await wrong.stop()

        // Without the secret in the environment the server does not start, and says why.
        do {
            let unset = try await ServerProcess.start(arguments, environment: ["TEST_S3_ACCESS_KEY": s3.accessKey])
            _ = try await unset.stop()
            Issue.record("started without the secret")
        } catch {
            #expect("\(error)".contains("10-s3.toml") && "\(error)".contains("TEST_S3_SECRET_KEY"), "\(error)")
        }
    }
}
