// MARK: - ImagePipelineBusy

/// A decode waited longer than the pipeline's
/// ``ImagePipeline/Configuration/queueTimeout`` for room in its memory budget: the work in
/// flight holds the budget, and this request was not started. A server answers it with
/// `503 Service Unavailable` and `Retry-After` ``retryAfter``.
///
/// ```swift
/// do {
///     _ = try await pipeline.image(for: "photo.jpg", variant: "original")
/// } catch let busy as ImagePipelineBusy {
///     print(busy)   // busy: waited 5 s for 1024 MB of work in flight to make room (retry after 5 s)
/// }
/// ```
public struct ImagePipelineBusy: Error, Sendable, Equatable, CustomStringConvertible {
    /// The seconds the decode waited (the queue timeout).
    public var waited: Double
    /// The memory budget it waited on, in bytes (`nil`: it waited for a processing slot only).
    public var budget: Int?
    /// Whole seconds a client should wait before asking again (the timeout, rounded up, at least 1).
    public var retryAfter: Int

    /// A wait of `waited` seconds for room in `budget` bytes.
    public init(waited: Double, budget: Int?) {
        self.waited = waited
        self.budget = budget
        self.retryAfter = max(1, Int(min(waited, 86_400).rounded(.up)))
    }

    /// `busy: waited 5 s for 1024 MB of work in flight to make room (retry after 5 s)`.
    public var description: String {
        let seconds = waited == waited.rounded() ? String(Int(waited)) : String(waited)
        let what = budget.map { "\($0 / (1024 * 1024)) MB of work in flight to make room" } ?? "a processing slot"
        return "busy: waited \(seconds) s for \(what) (retry after \(retryAfter) s)"
    }
}
