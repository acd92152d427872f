import DarkroomCore

// MARK: - ImageTask

/// A running request: raise or lower its priority, cancel it, await its response.
///
/// Cancelling (``cancel()``, or cancelling the Swift task awaiting ``response``) ends *this*
/// request at once with `CancellationError`, even while work it shares with other requests goes
/// on; the shared work is cancelled when no request wants it any more — down to the source's
/// transfer.
///
/// ```swift
/// let task = pipeline.request(ImageRequest(location: url, variant: .named("avatar"), priority: .low))
/// task.priority = .veryHigh
/// let response = try await task.response
/// ```
public final class ImageTask: @unchecked Sendable {  // mutable state guarded by the pipeline lock
    /// The request this task runs, as submitted (its priority is the starting one: see ``priority``).
    public let request: ImageRequest
    private let core: PipelineCore
    private var currentPriority: ImagePriority
    private var outcome: Result<ImageResponse, any Error>?
    private var awaiting: [Int: CheckedContinuation<ImageResponse, any Error>] = [:]
    private var nextAwaitingID = 0
    /// The render job this task waits on, and its waiter id there.
    private var subscription: (node: JobNode, waiterID: Int)?

    init(request: ImageRequest, core: PipelineCore, outcome: Result<ImageResponse, any Error>? = nil) {
        self.request = request
        self.core = core
        self.currentPriority = request.priority
        self.outcome = outcome
    }

    /// The priority; raising it moves the task's queued work (and the shared work it waits on)
    /// ahead at once.
    public var priority: ImagePriority {
        get { core.lock.run { _ in currentPriority } }
        set {
            core.lock.run { effects in
                currentPriority = newValue
                if let subscription { subscription.node.setWaiterPriority(subscription.waiterID, newValue, &effects) }
            }
        }
    }

    /// Ends the request with `CancellationError` now; does nothing once it has finished.
    public func cancel() {
        core.lock.run { effects in complete(.failure(CancellationError()), &effects) }
    }

    /// `true` once the response (or an error) is known.
    public var isFinished: Bool { core.lock.run { _ in outcome != nil } }

    /// The response. Cancelling the awaiting Swift task cancels the request.
    public var response: ImageResponse {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    core.lock.run { effects in
                        if let outcome {
                            effects.later { continuation.resume(with: outcome) }
                        } else {
                            awaiting[nextAwaitingID] = continuation
                            nextAwaitingID += 1
                        }
                    }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    // MARK: - Driving (under the pipeline lock)

    /// Waits on the render job for `spec`; `fallbackError` is set when this is the fallback.
    func subscribe(_ spec: RenderSpec, fallbackError: (any Error)?, _ effects: inout PipelineEffects) {
        guard outcome == nil else { return }
        let job = core.renderJob(for: spec, &effects)
        let id = job.addWaiter(priority: currentPriority, &effects) { [self] result, effects in
            subscription = nil
            deliver(result, spec: spec, fallbackError: fallbackError, &effects)
        }
        if let id { subscription = (job, id) }
    }

    private func deliver(
        _ result: Result<RenderOutcome, any Error>, spec: RenderSpec, fallbackError: (any Error)?,
        _ effects: inout PipelineEffects
    ) {
        switch result {
        case let .success(rendered):
            let response = ImageResponse(
                location: request.location, variant: request.variantName, bytes: rendered.bytes, format: rendered.format,
                image: rendered.image, cacheLayer: rendered.layer, isFallback: fallbackError != nil,
                fallbackError: fallbackError)
            var delivered = response
            delivered.freshness = rendered.freshness
            delivered.flattenedAnimation = rendered.flattened
            delivered.contentDigest = rendered.digest
            if request.wantsImage, delivered.image == nil {
                decodeThenComplete(delivered, &effects)
            } else {
                complete(.success(delivered), &effects)
            }
        case let .failure(error):
            // A busy pipeline is not a failed source: the client is asked to come back, not given the placeholder.
            if fallbackError == nil, !(error is CancellationError), !(error is ImagePipelineBusy), let fallback = core.fallback {
                let fallbackSpec = RenderSpec(source: fallback.resolved(), output: spec.output.retargeted(to: fallback))
                subscribe(fallbackSpec, fallbackError: error, &effects)
            } else {
                complete(.failure(fallbackError ?? error), &effects)
            }
        }
    }

    /// Decodes cached bytes for a request that wants the pixels.
    private func decodeThenComplete(_ response: ImageResponse, _ effects: inout PipelineEffects) {
        let core = core
        effects.later {
            Task(executorPreference: core.threads.jobs) {
                var response = response
                let result: Result<ImageResponse, any Error>
                do {
                    // Cached bytes are upright already.
                    var upright = core.configuration.decoding
                    upright.appliesOrientation = false
                    let options = upright
                    let registry = core.configuration.registry
                    let bytes = response.bytes
                    response.image = try await core.threads.compute { try registry.decode(bytes, options: options) }
                    result = .success(response)
                } catch {
                    result = .failure(error)
                }
                core.lock.run { effects in self.complete(result, &effects) }
            }
        }
    }

    /// Sets the outcome once, withdraws from the render job, resumes everyone awaiting.
    func complete(_ result: Result<ImageResponse, any Error>, _ effects: inout PipelineEffects) {
        guard outcome == nil else { return }
        outcome = result
        if let subscription {
            self.subscription = nil
            subscription.node.removeWaiter(subscription.waiterID, &effects)
        }
        let waiting = awaiting.sorted { $0.key < $1.key }.map(\.value)
        awaiting = [:]
        for continuation in waiting { effects.later { continuation.resume(with: result) } }
    }
}

extension RenderSpec.Output {
    /// The same output from the fallback source (its own cache key).
    func retargeted(to fallback: FallbackSource) -> RenderSpec.Output {
        switch self {
        case .original:
            return .original
        case let .variant(target, _):
            return .variant(target, cacheKey: target.cacheKey(for: fallback.resolved()))
        }
    }
}
