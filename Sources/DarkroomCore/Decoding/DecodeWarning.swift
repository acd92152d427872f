import Synchronization

// MARK: - DecodeWarning

/// Damage a decode went past because its ``FailOn`` level let it: what the CLI prints as
/// `warning:` and the server logs.
///
/// ```swift
/// DecodeWarning(format: .jpeg, damage: .truncated, detail: "Premature end of JPEG file").description
/// // "JPEG data is truncated (Premature end of JPEG file); decoded what arrived"
/// ```
public struct DecodeWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The format of the damaged input.
    public var format: ImageFormat
    /// What kind of damage it was.
    public var damage: DecodeDamage
    /// The codec's own words.
    public var detail: String
    /// Where the bytes came from (a path or URL), when the caller knows: decoders leave it
    /// `nil`; the pipeline fills it in before handing the warning on.
    public var source: String?

    /// A warning about `format` data with `damage`, in the codec's words `detail`.
    public init(format: ImageFormat, damage: DecodeDamage, detail: String, source: String? = nil) {
        self.format = format
        self.damage = damage
        self.detail = detail
        self.source = source
    }

    public var description: String {
        let name = format.displayName
        switch damage {
        case .truncated: return "\(name) data is truncated (\(detail)); decoded what arrived"
        case .error: return "\(name) data is damaged (\(detail)); decoded what could be"
        case .warning: return "\(name) data is damaged (\(detail)); decoded past it"
        }
    }
}

// MARK: - DecodeWarningHandler

/// Where a decoder sends ``DecodeWarning``s: a closure called on the decoding thread.
///
/// Handlers never take part in equality or hashing: two ``DecodeOptions`` that differ only in
/// their handler decode the same pixels.
///
/// ```swift
/// let log = DecodeWarningLog()
/// let options = DecodeOptions(failOn: .truncated, warnings: log.handler)
/// ```
public struct DecodeWarningHandler: Sendable, Hashable {
    private let receive: @Sendable (DecodeWarning) -> Void

    /// A handler calling `receive` for each warning.
    public init(_ receive: @escaping @Sendable (DecodeWarning) -> Void) {
        self.receive = receive
    }

    /// Sends `warning` to the handler.
    public func callAsFunction(_ warning: DecodeWarning) {
        receive(warning)
    }

    /// Always `true`: handlers do not change what is decoded.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}

// MARK: - DecodeWarningLog

/// A thread-safe list of the warnings of one or more decodes.
///
/// ```swift
/// let log = DecodeWarningLog()
/// _ = try registry.decode(bytes, options: DecodeOptions(failOn: .none, warnings: log.handler))
/// log.warnings.forEach { print("warning: \($0)") }
/// ```
public final class DecodeWarningLog: Sendable {
    private let stored = Mutex<[DecodeWarning]>([])

    /// An empty log.
    public init() {}

    /// The warnings received so far, in order.
    public var warnings: [DecodeWarning] { stored.withLock { $0 } }

    /// A handler appending to this log.
    public var handler: DecodeWarningHandler {
        DecodeWarningHandler { [self] warning in stored.withLock { $0.append(warning) } }
    }
}
