import DarkroomCore

// MARK: - LimitSettings

/// The `[limits]` section of `filters.d/`: how much memory the work in flight may hold, how
/// large a source may be, and how long work waits for room before it is refused.
///
/// ```toml
/// [limits]
/// memory = "1GB"            # pixels in flight across all requests (decode, filters, encode)
/// max-pixels = 100_000_000  # larger sources, and filter outputs, are refused before decoding
/// max-input-size = "50MB"   # larger source files are refused before decoding
/// max-frames = 500          # animations with more frames are refused before decoding
/// queue-timeout = "10s"     # a longer wait for room answers 503 with Retry-After
/// ```
///
/// Every key is optional; a later file's key replaces an earlier one's. A key left out keeps
/// the engine's default (256 MiB, 100 megapixels, 100 MiB of input, 1,000 frames, waiting as
/// long as it takes; the server waits 30 s); `darkroom-server`'s `--memory`, `--max-pixels`,
/// `--max-frames` and `--queue-timeout` win over these.
public struct LimitSettings: Sendable, Hashable {
    /// Bytes of pixels the work in flight may hold, across all requests (`memory`).
    public var memory: Int?
    /// The most pixels a source, and each filter's output, may have (`max-pixels`).
    public var maxPixels: Int?
    /// The most bytes a source file may have (`max-input-size`).
    public var maxInputSize: Int?
    /// The most frames an animated source may have (`max-frames`, imgproxy's `max_animation_frames`).
    public var maxFrames: Int?
    /// Seconds a decode may wait for room in the memory budget (`queue-timeout`).
    public var queueTimeout: Double?
    /// Where each key was set, by key.
    public var locations: [String: SourceLocation]

    /// The keys `[limits]` may have.
    public static let keys = ["memory", "max-pixels", "max-input-size", "max-frames", "queue-timeout"]

    /// Settings with the given limits (`nil`: the engine's default).
    public init(
        memory: Int? = nil, maxPixels: Int? = nil, maxInputSize: Int? = nil, maxFrames: Int? = nil, queueTimeout: Double? = nil
    ) {
        self.memory = memory
        self.maxPixels = maxPixels
        self.maxInputSize = maxInputSize
        self.maxFrames = maxFrames
        self.queueTimeout = queueTimeout
        self.locations = [:]
    }

    /// The longest queue timeout accepted: a day (a longer wait is no bound at all).
    public static let maximumQueueTimeout = 86_400.0

    // MARK: - Reading

    /// Reads one file's `[limits]` table over `self`, reporting every problem at its line.
    mutating func read(_ section: ConfigNode, diagnostics: inout [Diagnostic]) {
        guard section.table != nil else {
            diagnostics.append(.error(at: section.location, "'limits' must be a table ([limits]), not \(section.value.kindDescription)"))
            return
        }
        for (key, node) in section.orderedMembers {
            func refuse(_ expected: String) {
                let given = node.string.map { "'\($0)'" } ?? node.integer.map(String.init) ?? node.value.kindDescription
                diagnostics.append(.error(at: node.location, "[limits] \(key) must be \(expected), not \(given)"))
            }
            switch key {
            case "memory", "max-input-size":
                guard let bytes = Self.size(node), bytes > 0 else {
                    refuse("a size above zero such as \"1GB\", \"512MB\" or a number of bytes")
                    continue
                }
                if key == "memory" { memory = bytes } else { maxInputSize = bytes }
            case "max-pixels":
                guard let pixels = node.integer, pixels > 0 else {
                    refuse("a number of pixels above zero such as 100_000_000")
                    continue
                }
                maxPixels = pixels
            case "max-frames":
                guard let frames = node.integer, frames > 0 else {
                    refuse("a number of frames above zero such as 500")
                    continue
                }
                maxFrames = frames
            case "queue-timeout":
                guard let seconds = Self.duration(node), seconds > 0, seconds <= Self.maximumQueueTimeout else {
                    refuse("a duration above zero and at most a day, such as \"10s\", \"500ms\" or a number of seconds")
                    continue
                }
                queueTimeout = seconds
            default:
                let hint = NearestName.suggestion(for: key, among: Self.keys).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.append(.error(
                    at: node.location, "unknown key '\(key)' in [limits]\(hint); known keys: \(Self.keys.joined(separator: ", "))"))
                continue
            }
            locations[key] = node.location
        }
    }

    /// A size written as text (`"1GB"`) or a number of bytes.
    private static func size(_ node: ConfigNode) -> Int? {
        if let integer = node.integer { return integer }
        return node.string.flatMap(ConfigQuantity.bytes)
    }

    /// A duration written as text (`"10s"`) or a number of seconds.
    private static func duration(_ node: ConfigNode) -> Double? {
        if let number = node.number { return number.isFinite ? number : nil }
        return node.string.flatMap(ConfigQuantity.seconds)
    }
}
