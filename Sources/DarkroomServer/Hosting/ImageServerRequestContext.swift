import Hummingbird
import NIOCore

// MARK: - ImageServerRequestContext

/// Hummingbird's request context plus the request's channel, so the host can cancel the
/// render when that connection's client leaves (see ``ConnectionWatch``).
struct ImageServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The channel the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The connection's watch; `nil` once it has closed. Looked up when a request needs a
    /// render, not for every request (a memory hit never does).
    var connection: ConnectionWatch? { ConnectionWatch.watch(for: channel) }
}
