import DarkroomCore
import DarkroomServer
import Testing

// MARK: - Fetch failures to statuses

@Suite("A failed fetch's kind, not its wording, chooses the server's status")
struct ServerFailureStatusTests {
    @Test("each kind of fetch failure has its status", arguments: [
        (FetchFailureKind.invalidURL, 400), (.refused, 403), (.timedOut, 504), (.httpStatus, 502),
        (.connection, 502), (.tooLarge, 502), (.invalidResponse, 502), (.other, 502),
    ])
    func statusOfKind(kind: FetchFailureKind, status: Int) {
        // The reason's words mislead on purpose: only the kind may count.
        let error = DarkroomError.fetchFailed(url: "https://127.0.0.1/a.jpg", status: nil, reason: "timed out, private, not a valid URL", kind: kind)
        let failure = ServerFailure(error)
        #expect(failure.status == status)
        #expect(failure.message == "timed out, private, not a valid URL")
    }

    @Test("a variant that cannot apply to this source is 422; file system names it cannot reach are 404")
    func renderingAndNames() {
        let giant = DarkroomError.invalidArgument(
            name: "extend output", value: "33408×33195 (1109.0 megapixels)", expected: "at most 100 megapixels")
        #expect(ServerFailure(giant).status == 422)
        // An image too tall for the variant's format is the request's problem, not the server's
        // (the mutation sweep got 500 for a 64×65520 JPEG kept whole as JPEG).
        let tall = DarkroomError.outputTooLarge(.jpeg, width: 64, height: 65_520, limit: PixelSize(width: 65_500, height: 65_500))
        #expect(ServerFailure(tall).status == 422)
        #expect(ServerFailure(tall).message == "cannot encode JPEG: 64×65520 is larger than JPEG allows (65500×65500)")
        #expect(ServerFailure(DarkroomError.invalidArgument(name: "variant", value: "x", expected: "a variant")).status == 404)
        #expect(ServerFailure(DarkroomError.io(path: "a", detail: "file name too long")).status == 404)
        #expect(ServerFailure(DarkroomError.io(path: "a", detail: "input/output error")).status == 500)
        let secret = DarkroomError.unrecognizedFormat(hint: "the data is plain text, not an image (starts with \"DB_PASSWORD=hunter2\")")
        #expect(ServerFailure(secret).message == "unrecognised image format: the data is plain text, not an image")
    }

    @Test("an upstream 404 or 410 is 404 whatever the kind; other upstream statuses are 502")
    func upstreamStatuses() {
        for kind in [FetchFailureKind.httpStatus, .other] {
            #expect(ServerFailure(DarkroomError.fetchFailed(url: "u", status: 404, reason: "HTTP 404 Not Found", kind: kind)).status == 404)
            #expect(ServerFailure(DarkroomError.fetchFailed(url: "u", status: 410, reason: "HTTP 410 Gone", kind: kind)).status == 404)
        }
        #expect(ServerFailure(DarkroomError.fetchFailed(url: "u", status: 503, reason: "HTTP 503", kind: .httpStatus)).status == 502)
        #expect(FetchFailureKind.allCases.count == 8)
    }

    @Test("log lines escape control characters, so a decoded path cannot forge another line")
    func logSafe() {
        #expect(ImageServerHost.logSafe("a.jpg\n2026-11-23 critical FORGED\r\t\u{85}é") == "a.jpg\\u{A}2026-11-23 critical FORGED\\u{D}\\u{9}\\u{85}é")
    }
}
