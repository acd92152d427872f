import NIOCore
import Synchronization

// MARK: - ConnectionWatch

/// One client connection, as the request being answered on it sees it: whether the client has
/// gone, and the render to cancel when it goes.
///
/// ``ClientDisconnectHandler`` (in the connection's channel pipeline) calls ``clientLeft()``
/// when the client closes its side or the connection drops; the host runs each request through
/// ``serve(_:)``, so a client that stops waiting stops its render, as imgproxy (Go's request
/// context) does. The pipeline then drops work no other request shares, down to the source's
/// transfer.
///
/// ```swift
/// let response = await watch.serve { await server.respond(to: request) }
/// ```
final class ConnectionWatch: Sendable {
    private struct State {
        var hasClientLeft = false
        var inFlight: Task<ImageServerResponse, Never>?
    }

    private let state = Mutex(State())

    /// `true` once the client closed its side of the connection or the connection dropped.
    var hasClientLeft: Bool { state.withLock { $0.hasClientLeft } }

    /// Marks the client gone and cancels the render in flight, if any.
    func clientLeft() {
        let render = state.withLock { state -> Task<ImageServerResponse, Never>? in
            state.hasClientLeft = true
            defer { state.inFlight = nil }
            return state.inFlight
        }
        render?.cancel()
    }

    /// Runs `respond` as a task of its own, cancelled when the client leaves (at once if it
    /// already has) or when the calling task is cancelled.
    func serve(_ respond: @escaping @Sendable () async -> ImageServerResponse) async -> ImageServerResponse {
        let render = Task { await respond() }
        let gone = state.withLock { state -> Bool in
            if !state.hasClientLeft { state.inFlight = render }
            return state.hasClientLeft
        }
        if gone { render.cancel() }
        let response = await withTaskCancellationHandler { await render.value } onCancel: { render.cancel() }
        state.withLock { if $0.inFlight == render { $0.inFlight = nil } }
        return response
    }

    // MARK: - Finding a connection's watch

    /// The watches of the open connections, by channel. A request finds its connection's
    /// watch here from the channel its context carries.
    private static let open = Mutex<[ObjectIdentifier: ConnectionWatch]>([:])

    static func register(_ watch: ConnectionWatch, for channel: any Channel) {
        open.withLock { $0[ObjectIdentifier(channel)] = watch }
    }

    static func unregister(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The watch of `channel`'s connection; `nil` once the connection has closed.
    static func watch(for channel: any Channel) -> ConnectionWatch? {
        open.withLock { $0[ObjectIdentifier(channel)] }
    }
}
