import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCurl

// MARK: - s3:// against a real S3-compatible server

/// moto's server with signatures checked (`LoopbackS3`): one per suite run, shared by the tests.
private let store: Task<LoopbackS3, any Error> = Task {
    try await LoopbackS3.launch(
        bucket: "photos",
        objects: ["a.jpg": Fixtures.path("gradient.jpg"), "dir/my photo.png": Fixtures.path("gradient-rgb.png")],
        randomObjects: ["big.bin": 2 * 1024 * 1024])
}

@Suite("The s3:// source reads signed from an S3-compatible server, with the HTTP source's limits and revalidation")
struct S3SourceTests {
    static func source(
        _ s3: LoopbackS3, secret: String? = nil, accessKey: String? = nil, buckets: [String] = ["photos"], maxBytes: Int? = nil
    ) throws -> S3Source {
        var settings = S3SourceSettings(
            buckets: buckets, accessKey: accessKey ?? s3.accessKey, secretKey: secret ?? s3.secretKey, endpoint: s3.endpoint)
        settings.transfer.retry.maxRetries = 0
        if let maxBytes { settings.transfer.maxResponseBytes = maxBytes }
        return try S3Source(settings: settings)
    }

    @Test("the right secret gets the object, keyed s3://BUCKET/KEY, and an unchanged object revalidates with 304")
    func rightSecret() async throws {
        let s3 = try await store.value
        let source = try Self.source(s3)
        let data = try await source.load("s3://photos/a.jpg")
        #expect(data.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gradient.jpg")))))
        #expect(data.key == "s3://photos/a.jpg")
        #expect(data.etag != nil)
        guard case let .notModified(fresh) = try await source.load("s3://photos/a.jpg", revalidating: data) else {
            Issue.record("expected 304 Not Modified")
            return
        }
        #expect(fresh.bytes == data.bytes)
        // A key with a space, percent-encoded once, as SigV4 signs it (moto mis-signs a "+": not tested).
        let spaced = try await source.load("s3://photos/dir/my photo.png")
        #expect(spaced.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gradient-rgb.png")))))
    }

    @Test("a wrong secret or access key is a clear 403-class error naming S3's code")
    func wrongCredentials() async throws {
        let s3 = try await store.value
        for (source, code) in [
            (try Self.source(s3, secret: "not-the-secret-at-all"), "SignatureDoesNotMatch"),
            (try Self.source(s3, accessKey: "AKIANOTAREALKEY00000"), "InvalidAccessKeyId"),
        ] {
            do {
                _ = try await source.load("s3://photos/a.jpg")
                Issue.record("loaded with wrong credentials")
            } catch let DarkroomError.fetchFailed(url, status, reason, kind) {
                #expect(url == "s3://photos/a.jpg")
                #expect(status == 403)
                #expect(kind == .refused)
                #expect(reason.contains(code) && reason.contains("secret-key-env"), "\(reason)")
            }
        }
    }

    @Test("a missing key is a 404; a bucket not listed is refused before any request")
    func missingAndRefused() async throws {
        let s3 = try await store.value
        let source = try Self.source(s3)
        await #expect {
            _ = try await source.load("s3://photos/nope.jpg")
        } throws: { error in
            guard case let DarkroomError.fetchFailed(_, status, reason, _) = error else { return false }
            return status == 404 && reason.contains("NoSuchKey")
        }
        await #expect {
            _ = try await source.load("s3://other-bucket/a.jpg")
        } throws: { error in
            guard case let DarkroomError.fetchFailed(_, _, reason, kind) = error else { return false }
            return kind == .refused && reason.contains("not in buckets")
        }
        #expect(throws: DarkroomError.self) { try source.key(for: "s3://photos") }
        #expect(throws: DarkroomError.self) { try source.key(for: "s3://Bad_Bucket/a.jpg") }
    }

    @Test("an object larger than the byte limit is cut at the limit")
    func byteLimit() async throws {
        let s3 = try await store.value
        let source = try Self.source(s3, maxBytes: 1024 * 1024)
        await #expect {
            _ = try await source.load("s3://photos/big.bin")
        } throws: { error in
            guard case let DarkroomError.fetchFailed(url, _, reason, kind) = error else { return false }
            return kind == .tooLarge && url == "s3://photos/big.bin" && reason.contains("1048576")
        }
    }

    @Test("path-style and virtual-hosted addressing, keys encoded once")
    func addressing() throws {
        var settings = S3SourceSettings(buckets: ["photos"], accessKey: "k", secretKey: "s", endpoint: "http://127.0.0.1:9000")
        #expect(try S3Source(settings: settings).objectURL(bucket: "photos", key: "a b/c+d.jpg")
            == "http://127.0.0.1:9000/photos/a%20b/c%2Bd.jpg")
        settings.pathStyle = false
        #expect(try S3Source(settings: settings).objectURL(bucket: "photos", key: "a.jpg") == "http://photos.127.0.0.1:9000/a.jpg")
        // AWS's default endpoint is only computed here, as a string: nothing is ever sent to it.
        let aws = S3SourceSettings(buckets: ["photos"], accessKey: "k", secretKey: "s")
        #expect(!aws.pathStyle)
        #expect(try S3Source(settings: aws).objectURL(bucket: "photos", key: "a.jpg") == "https://photos.s3.us-east-1.amazonaws.com/a.jpg")
        for endpoint in ["http://127.0.0.1/path", "http://127.0.0.1:9000/path/", "http://127.0.0.1/?x=1"] {
            #expect(throws: DarkroomError.self, "\(endpoint)") {
                try S3Source(settings: S3SourceSettings(buckets: ["photos"], accessKey: "k", secretKey: "s", endpoint: endpoint))
            }
        }
        // A scheme's default port is left out; an IPv6 endpoint keeps its brackets.
        let plain = S3SourceSettings(buckets: ["photos"], accessKey: "k", secretKey: "s", endpoint: "HTTP://LocalHost:80/")
        #expect(try S3Source(settings: plain).objectURL(bucket: "photos", key: "a.jpg") == "http://localhost/photos/a.jpg")
        let v6 = S3SourceSettings(buckets: ["photos"], accessKey: "k", secretKey: "s", endpoint: "http://[::1]:9000")
        #expect(try S3Source(settings: v6).objectURL(bucket: "photos", key: "a.jpg") == "http://[::1]:9000/photos/a.jpg")
    }
}
