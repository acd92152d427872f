// MARK: - ImagePipeline.Activity

extension ImagePipeline {
    /// A snapshot of the pipeline's work, for diagnostics and tests.
    ///
    /// ```swift
    /// let activity = pipeline.activity
    /// print(activity.queuedDownloads, activity.activeProcessing)
    /// ```
    public struct Activity: Sendable, Equatable {
        public var queuedDownloads: Int
        public var activeDownloads: Int
        public var queuedProcessing: Int
        public var activeProcessing: Int
        /// Render jobs in flight (requests for equal renders share one).
        public var renderJobs: Int
        /// Sources being worked on.
        public var sessions: Int
        /// Render jobs attached to those sources (waiting for their bytes, or rendering).
        public var attachedRenders: Int
        /// The source keys of queued downloads, in the order they would start now.
        public var queuedDownloadKeys: [String]
    }

    /// What the pipeline is doing now.
    public var activity: Activity { core.activity() }
}
