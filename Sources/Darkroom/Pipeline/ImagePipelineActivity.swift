// MARK: - ImagePipeline.Activity

extension ImagePipeline {
    /// A snapshot of the pipeline's work, for diagnostics and tests.
    ///
    /// ```swift
    /// let activity = pipeline.activity
    /// print(activity.queuedDownloads, activity.activeProcessing)
    /// ```
    public struct Activity: Sendable, Equatable {
        /// Source fetches waiting for a download slot.
        public var queuedDownloads: Int
        /// Source fetches holding a download slot (at most
        /// ``ImagePipeline/Configuration/maximumActiveDownloads``).
        public var activeDownloads: Int
        /// Decode, filter and encode work waiting for a processing slot.
        public var queuedProcessing: Int
        /// Decode, filter and encode work holding a processing slot (at most
        /// ``ImagePipeline/Configuration/maximumActiveProcessing``).
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
