import Glibc

// MARK: - LoopbackListener

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks, closed when released.
///
/// Bound only, it reserves a free port (``LoopbackMemcached/freePort()`` releases it for a
/// server to take). Listening, it is a black hole: connections complete in the kernel's
/// backlog and then nothing is ever answered, as with a stuck or partitioned server.
///
/// ```swift
/// let hole = try LoopbackListener(listening: true)
/// // servers = ["127.0.0.1:\(hole.port)"]: every operation times out
/// ```
public final class LoopbackListener: @unchecked Sendable {
    public let port: Int
    private let fd: Int32

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(listening: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && (!listening || listen(fd, 64) == 0) && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(fd)
            throw Failure(description: "bind or listen on 127.0.0.1: errno \(error)")
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
