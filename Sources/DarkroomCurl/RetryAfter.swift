import DarkroomCore
import FoundationEssentials

// MARK: - RetryAfter

/// `Retry-After` values: a number of seconds, or an HTTP date (``HTTPDate``).
///
/// ```swift
/// RetryAfter.seconds("120")                             // 120
/// RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT")   // seconds from now (0 if past)
/// ```
enum RetryAfter {
    static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimming(" \t"), !value.isEmpty else { return nil }
        if let number = Double(value), number.isFinite, number >= 0 { return number }
        let nowSeconds = now.timeIntervalSince1970
        guard let date = HTTPDate.secondsSince1970(value, now: nowSeconds) else { return nil }
        return max(0, Double(date) - nowSeconds)
    }

    /// The delay before retry number `attempt` (0-based): the server's `Retry-After` when
    /// given, else the base delay doubled per attempt with ±25 % jitter, capped at `maxDelay`.
    static func delay(attempt: Int, retryAfter: Double?, policy: HTTPSourceSettings.Retry) -> Double {
        if let retryAfter { return retryAfter }
        let exponential = policy.baseDelay * Double(1 << min(attempt, 30))
        return min(policy.maxDelay, exponential * Double.random(in: 0.75...1.25))
    }
}
