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
        let error = DarkroomError.fetchFailed(url: "https://example.com/a.jpg", status: nil, reason: "timed out, private, not a valid URL", kind: kind)
        let failure = ServerFailure(error)
        #expect(failure.status == status)
        #expect(failure.message == "timed out, private, not a valid URL")
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
}
