import Synchronization

// MARK: - Threads per resize

extension Resampler {
    private static let threadLimit = Atomic<Int>(0)

    /// The most threads one resize may use; `0` (the default) means every online processor.
    /// A large resize is split into row bands across threads; the output is identical for any
    /// setting. Set `1` when images are already processed in parallel (e.g. `darkroom batch
    /// --jobs N`, a server), so that N jobs use N threads and `--jobs 1` is single-threaded.
    ///
    /// ```swift
    /// Resampler.maximumThreads = 1
    /// ```
    public static var maximumThreads: Int {
        get { threadLimit.load(ordering: .relaxed) }
        set { threadLimit.store(max(0, newValue), ordering: .relaxed) }
    }
}
