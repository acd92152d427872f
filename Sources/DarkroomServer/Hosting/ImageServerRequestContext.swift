import Hummingbird
import NIOCore

// MARK: - ImageServerRequestContext

/// Hummingbird's request context plus the request's connection, so the host can cancel the
/// render when that connection's client leaves (see ``ConnectionWatch``).
struct ImageServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on; `nil` if it closed before the request was read.
    let connection: ConnectionWatch?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = ConnectionWatch.watch(for: source.channel)
    }
}
