// MARK: - ImagePriority

/// How urgently a request's work should run. Queued work runs highest priority first; a job
/// shared by several requests runs at the highest priority any of them asks for.
///
/// ```swift
/// let task = pipeline.request(ImageRequest(location: "cat.jpg", variant: .named("avatar"), priority: .low))
/// task.priority = .veryHigh   // the cell scrolled into view: its queued work moves ahead
/// ```
public enum ImagePriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// The lowest priority: runs when nothing more urgent is queued.
    case veryLow = 0
    /// Below the default.
    case low
    /// The default priority of a request.
    case normal
    /// Above the default.
    case high
    /// The highest priority: queued work runs before all other.
    case veryHigh

    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .veryLow: return "veryLow"
        case .low: return "low"
        case .normal: return "normal"
        case .high: return "high"
        case .veryHigh: return "veryHigh"
        }
    }
}
