import NIOCore

// MARK: - ClientDisconnectHandler

/// A channel handler that tells its connection's ``ConnectionWatch`` when the client goes:
/// when it closes its side (the server's read sees the end of input; Hummingbird allows
/// half-closed connections, so this is an event, not a close) or when the connection drops.
/// Everything else passes through untouched.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [ClientDisconnectHandler()])
/// ```
final class ClientDisconnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Whatever the HTTP decoder produced; never unwrapped, only passed on.
    typealias InboundIn = NIOAny

    let watch = ConnectionWatch()

    func handlerAdded(context: ChannelHandlerContext) {
        ConnectionWatch.register(watch, for: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ConnectionWatch.unregister(context.channel)
        watch.clientLeft()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { watch.clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.clientLeft()
        context.fireChannelInactive()
    }
}
