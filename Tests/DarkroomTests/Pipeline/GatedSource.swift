import DarkroomCore
import Synchronization

// MARK: - GatedSource

/// A real ``ImageSource`` over fixture bytes whose loads wait for a per-location gate, so tests
/// decide when each transfer finishes. It records the order loads started, which loads were
/// cancelled (Task cancellation seen while waiting), and can fail a location on purpose.
///
/// Locations are `gated:NAME`; the key is the location, and there is no fingerprint (like HTTP).
final class GatedSource: ImageSource, Sendable {
    let name = "gated"
    static let scheme = "gated:"

    private struct State {
        var images: [String: [UInt8]]
        var open: Set<String> = []
        var allOpen = false
        var failing: [String: DarkroomError] = [:]
        var waiting: [String: [Int: CheckedContinuation<Void, any Error>]] = [:]
        var nextWaiter = 0
        var started: [String] = []
        var finished: [String] = []
        var cancelled: [String] = []
    }

    private let state: Mutex<State>

    /// `images` maps names to bytes; every `gated:NAME` location serves `images[NAME]`.
    init(_ images: [String: [UInt8]]) {
        state = Mutex(State(images: images))
    }

    // MARK: - Control

    /// Lets loads of `location` finish (now and later).
    func open(_ location: String) {
        let waiters = state.withLock { state in
            state.open.insert(location)
            return state.waiting.removeValue(forKey: location)?.values.map { $0 } ?? []
        }
        waiters.forEach { $0.resume() }
    }

    /// Lets every load finish (now and later).
    func openAll() {
        let waiters = state.withLock { state in
            state.allOpen = true
            defer { state.waiting = [:] }
            return state.waiting.values.flatMap(\.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Loads of `location` throw `error` once their gate opens.
    func fail(_ location: String, with error: DarkroomError) {
        state.withLock { $0.failing[location] = error }
    }

    /// Locations in the order their loads started (one entry per load).
    var started: [String] { state.withLock { $0.started } }
    /// Locations whose loads returned bytes.
    var finished: [String] { state.withLock { $0.finished } }
    /// Locations whose loads saw Task cancellation.
    var cancelled: [String] { state.withLock { $0.cancelled } }
    /// How many loads of `location` started.
    func loads(of location: String) -> Int { state.withLock { $0.started.filter { $0 == location }.count } }

    // MARK: - ImageSource

    func canLoad(_ location: String) -> Bool { location.hasPrefix(Self.scheme) }

    func load(_ location: String) async throws -> SourceData {
        let id = state.withLock { state -> Int in
            state.started.append(location)
            state.nextWaiter += 1
            return state.nextWaiter
        }
        do {
            try await gate(location, id: id)
        } catch {
            state.withLock { $0.cancelled.append(location) }
            throw error
        }
        let (bytes, failure) = state.withLock { ($0.images[String(location.dropFirst(Self.scheme.count))], $0.failing[location]) }
        if let failure { throw failure }
        guard let bytes else { throw DarkroomError.fetchFailed(url: location, status: 404, reason: "HTTP 404 Not Found") }
        state.withLock { $0.finished.append(location) }
        return SourceData(key: location, bytes: bytes)
    }

    /// Waits until `location`'s gate opens; throws `CancellationError` when the task is cancelled first.
    private func gate(_ location: String, id: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    if state.allOpen || state.open.contains(location) { return true }
                    if Task.isCancelled { return true }
                    state.waiting[location, default: [:]][id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in state.waiting[location]?.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}

// MARK: - RevalidatingSource

/// A source like an HTTP origin with validators: every response carries an ETag (the version
/// number) and a max-age; a revalidating load whose cached ETag matches answers `.notModified`.
/// Counts full loads and revalidations.
final class RevalidatingSource: ImageSource, Sendable {
    let name = "origin"
    static let scheme = "origin:"

    private struct State {
        var bytes: [UInt8]
        var version = 1
        var maxAge: Int?
        var noStore = false
        var fullLoads = 0
        var notModified = 0
        var sentValidators: [String?] = []
    }

    private let state: Mutex<State>

    init(bytes: [UInt8], maxAge: Int?) {
        state = Mutex(State(bytes: bytes, maxAge: maxAge))
    }

    /// Changes the content (and so the ETag).
    func replace(with bytes: [UInt8]) { state.withLock { $0.bytes = bytes; $0.version += 1 } }
    func setMaxAge(_ maxAge: Int?) { state.withLock { $0.maxAge = maxAge } }
    func setNoStore(_ noStore: Bool) { state.withLock { $0.noStore = noStore } }
    var fullLoads: Int { state.withLock { $0.fullLoads } }
    var notModifiedAnswers: Int { state.withLock { $0.notModified } }
    /// The ETag each revalidating load sent (`nil` when it had no cached copy).
    var sentValidators: [String?] { state.withLock { $0.sentValidators } }

    func canLoad(_ location: String) -> Bool { location.hasPrefix(Self.scheme) }

    func load(_ location: String) async throws -> SourceData {
        try await load(location, revalidating: nil).data
    }

    func load(_ location: String, revalidating cached: SourceData?) async throws -> SourceLoadOutcome {
        try Task.checkCancellation()
        return state.withLock { state in
            state.sentValidators.append(cached?.etag)
            let etag = "\"v\(state.version)\""
            if let cached, cached.etag == etag {
                state.notModified += 1
                var fresh = cached
                fresh.maxAge = state.maxAge
                return .notModified(fresh)
            }
            state.fullLoads += 1
            return .loaded(SourceData(
                key: location, bytes: state.bytes, contentType: "image/png", etag: etag, maxAge: state.maxAge,
                noStore: state.noStore))
        }
    }
}
