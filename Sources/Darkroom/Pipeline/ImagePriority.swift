// MARK: - ImagePriority

/// How urgently a request's work should run. Queued work runs highest priority first; a job
/// shared by several requests runs at the highest priority any of them asks for.
///
/// ```swift
/// let task = pipeline.request(ImageRequest(location: "cat.jpg", variant: .named("avatar"), priority: .low))
/// task.priority = .veryHigh   // the cell scrolled into view: its queued work moves ahead
/// ```
public enum ImagePriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case veryLow = 0, low, normal, high, veryHigh

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
