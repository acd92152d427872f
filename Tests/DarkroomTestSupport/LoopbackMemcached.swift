import Foundation
import Glibc

// MARK: - LoopbackMemcached

/// A real `memcached` on 127.0.0.1 at a free port, started for a test and killed with it.
public final class LoopbackMemcached: @unchecked Sendable {
    public let port: Int
    private let process: Process

    /// `host:port`, as a `servers` entry.
    public var address: String { "127.0.0.1:\(port)" }

    /// Starts `memcached -l 127.0.0.1 -p PORT` (64 MB, 1 MB items) and waits until it accepts
    /// connections.
    public init() throws {
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        // memcached refuses to run as root unless told which user to be.
        let user = geteuid() == 0 ? ["-u", "root"] : []
        process.arguments = ["-l", "127.0.0.1", "-p", String(port), "-U", "0", "-m", "64", "-t", "1"] + user
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                process.terminate()
                throw StartError(message: "memcached did not start on port \(port)")
            }
            usleep(10_000)
        }
    }

    /// Starts one on a thread of its own: waiting for it to listen must not block one of the
    /// cooperative pool's few threads (the other suites' tasks run there).
    public static func launch() async throws -> LoopbackMemcached {
        try await onOwnThread { try LoopbackMemcached() }
    }

    /// Starts `count` of them, each as ``launch()`` does.
    public static func launch(count: Int) async throws -> [LoopbackMemcached] {
        var servers: [LoopbackMemcached] = []
        for _ in 0..<count { servers.append(try await launch()) }
        return servers
    }

    deinit { kill() }

    /// Ends it at once (SIGKILL), as a crash would.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        Glibc.kill(process.processIdentifier, SIGCONT)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
    }

    /// Stops it (SIGSTOP): connections still complete in the kernel, and nothing is answered,
    /// as with a stuck or partitioned server. ``resume()`` continues it.
    public func pause() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGSTOP)
        // kill() returns before the process has stopped: wait until /proc says it has.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !isStopped { usleep(1000) }
    }

    /// Whether the process is stopped (state `T` in `/proc/PID/stat`).
    private var isStopped: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }

    public func resume() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGCONT) }
    }

    public static var binary: String {
        ["/usr/bin/memcached", "/usr/local/bin/memcached"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/memcached"
    }

    public struct StartError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    // MARK: - Ports

    /// A port the kernel hands out for 127.0.0.1 (then released for memcached to take).
    public static func freePort() throws -> Int {
        try LoopbackListener(listening: false).port
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

// MARK: - Configuration text

extension LoopbackMemcached {
    /// `filters.d/` text for a memory layer over a shared memcached layer on `servers`
    /// (`host:port`), with `timeout` and any further `[caches.shared]` lines in `extra`.
    ///
    /// ```swift
    /// let text = LoopbackMemcached.cacheTables(servers: [memcached.address], timeout: "200ms", extra: "lease = \"2s\"")
    /// ```
    public static func cacheTables(servers: [String], timeout: String, extra: String = "") -> String {
        let list = servers.map { "\"\($0)\"" }.joined(separator: ", ")
        return """

            [caches.memory]
            capacity = "10MB"

            [caches.shared]
            type = "memcached"
            servers = [\(list)]
            timeout = "\(timeout)"
            \(extra)

            """
    }
}
