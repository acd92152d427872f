import DarkroomTools
import FoundationEssentials
import Glibc
import Logging
import Synchronization

// MARK: - JSONLogHandler

/// A log handler writing one JSON object per line to standard error, as log shippers
/// (Loki, Elasticsearch, Cloud Logging) read them: `time` (RFC 3339, UTC, milliseconds),
/// `level`, `logger` (the label), `message`, then every metadata key at the top level
/// (`status`, `duration_ms`, `request_id`, … of the access log). `darkroom-server
/// --log-format json` bootstraps it.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: .info) }
/// // {"time":"2026-11-27T23:15:18.042Z","level":"info","logger":"darkroom.server","message":"GET /thumb/a.jpg 200","status":200,…}
/// ```
public struct JSONLogHandler: LogHandler {
    /// The logger's label, written as each line's `logger`.
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// Writes whole lines (one `write(2)` each), so lines of concurrent requests never mix.
    private let write: @Sendable ([UInt8]) -> Void

    /// A handler for the logger `label` writing to standard error the messages of `level` and
    /// above; `metadataProvider` adds metadata to every line.
    public init(label: String, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, level: level, metadataProvider: metadataProvider) { line in
            line.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }

    /// A handler handing each line (with its final `\n`) to `write`.
    public init(
        label: String, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil,
        write: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let given = event.metadata { merged.merge(given) { $1 } }
        var line = "{\"time\":\(Self.quoted(Self.timestamp()))"
        line += ",\"level\":\(Self.quoted(event.level.rawValue))"
        line += ",\"logger\":\(Self.quoted(label))"
        line += ",\"message\":\(Self.quoted("\(event.message)"))"
        let reserved: Set<String> = ["time", "level", "logger", "message"]
        for key in merged.keys.sorted() {
            let name = reserved.contains(key) ? "meta_" + key : key
            line += ",\(Self.quoted(name)):\(Self.json(merged[key]!))"
        }
        line += "}\n"
        write(Array(line.utf8))
    }

    // MARK: - JSON text

    /// A metadata value as JSON: strings quoted (numbers written by `.stringConvertible` stay
    /// numbers), arrays and dictionaries as JSON arrays and objects.
    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case let .string(text):
            return quoted(text)
        case let .stringConvertible(convertible):
            let text = convertible.description
            let isNumber = convertible is any BinaryInteger || (convertible is any BinaryFloatingPoint && Double(text)?.isFinite == true)
            return isNumber ? text : quoted(text)
        case let .array(values):
            return "[" + values.map(json).joined(separator: ",") + "]"
        case let .dictionary(entries):
            return "{" + entries.keys.sorted().map { "\(quoted($0)):\(json(entries[$0]!))" }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string (``JSONText/string(_:)``).
    static func quoted(_ text: String) -> String { JSONText.string(text) }

    /// Now in RFC 3339, UTC, with milliseconds.
    static func timestamp() -> String {
        Date.now.formatted(Self.timeStyle)
    }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
