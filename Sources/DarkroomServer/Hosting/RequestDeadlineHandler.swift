import NIOCore
import NIOHTTPTypes

// MARK: - RequestDeadlineHandler

/// Closes a connection whose request is not read to its end within the idle timeout of its
/// head. Hummingbird's idle timeout restarts at every part that arrives, so a request body
/// that trickles one byte a second held its connection forever (1,000 of 1,000 such
/// connections were open after a minute with `--idle-timeout 10`). The server reads no request
/// bodies, so a whole request gets the time the idle timeout gives headers.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadlineHandler(timeout: .seconds(60))])
/// ```
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
