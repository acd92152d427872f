import Logging
import Synchronization
import Testing

@testable import Darkroom

@Suite("a cache layer that keeps failing is logged once per interval, with the failures left unlogged")
struct LayerFailureLogTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test("a burst of failures is one warning per layer; the next warning counts the ones in between")
    func throttled() async throws {
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in LineCollector(lines: lines) }
        let log = LayerFailureLog(logger: logger, interval: .milliseconds(200))
        for _ in 0..<50 { log.report("shared", "look up", Failure()) }
        log.report("disk", "store", Failure())
        #expect(lines.warnings.count == 2, "\(lines.warnings)")
        #expect(lines.warnings.first?.message == "cache layer failed to look up: connection refused")
        #expect(lines.warnings.first?.metadata["layer"] == "shared")

        try await Task.sleep(for: .milliseconds(250))
        log.report("shared", "look up", Failure())
        #expect(lines.warnings.count == 3)
        #expect(lines.warnings.last?.metadata["unlogged_failures"] == "49", "\(lines.warnings)")
    }
}

// MARK: - Capturing log lines

final class LogLines: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    func append(_ line: Line) { lines.withLock { $0.append(line) } }
    var warnings: [Line] { lines.withLock { $0.filter { $0.level == .warning } } }
}

struct LineCollector: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
        lines.append(.init(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
