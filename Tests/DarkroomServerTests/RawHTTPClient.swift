import DarkroomTestSupport
import Foundation
import Glibc

// MARK: - RawHTTPClient

/// A minimal HTTP/1.1 client over a plain socket, for talking to `darkroom-server` on
/// loopback the way any client would: one request per connection (`Connection: close`), the
/// response read to the end and parsed (status, headers, body by `Content-Length`).
///
/// ```swift
/// let response = try await RawHTTPClient.send("GET", "/thumbnail/a.jpg", port: 8080)
/// #expect(response.status == 200)
/// ```
enum RawHTTPClient {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        func header(_ name: String) -> String? { headers[name.lowercased()] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request on a thread of its own (the socket calls block).
    static func send(
        _ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
    ) async throws -> Response {
        try await onOwnThread { try sendBlocking(method, path, port: port, headers: headers, body: body) }
    }

    /// Connects, sends `partial` (perhaps an unfinished request) and returns the seconds until
    /// the server closes the connection, or `nil` if it is still open after `limit` seconds.
    static func secondsUntilClosed(port: Int, sending partial: String = "", limit: Int = 10) async throws -> Double? {
        try await onOwnThread {
            let fd = try connected(port: port, receiveTimeout: limit)
            defer { close(fd) }
            if !partial.isEmpty { _ = Array(partial.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } }
            let start = Date()
            var byte: UInt8 = 0
            while true {
                let n = recv(fd, &byte, 1, 0)
                if n == 0 { return Date().timeIntervalSince(start) }
                if n < 0 {
                    if errno == EINTR { continue }
                    // A receive timeout: still open. A reset: closed.
                    return errno == EAGAIN || errno == EWOULDBLOCK ? nil : Date().timeIntervalSince(start)
                }
            }
        }
    }

    /// Connects, sends `head` (a request's headers announcing a body), then one byte of body
    /// every quarter second, reading whatever the server answers; returns the seconds until
    /// the server closes the connection, or `nil` if it is still open after `limit` seconds.
    static func secondsUntilClosed(port: Int, sending head: String, tricklingBodyFor limit: Double) async throws -> Double? {
        try await onOwnThread {
            let fd = try connected(port: port, receiveTimeout: 1)
            defer { close(fd) }
            var quarter = timeval(tv_sec: 0, tv_usec: 250_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &quarter, socklen_t(MemoryLayout<timeval>.size))
            _ = Array(head.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let start = Date()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date().timeIntervalSince(start) < limit {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 { return Date().timeIntervalSince(start) }
                if n < 0 {
                    if errno == EINTR { continue }
                    guard errno == EAGAIN || errno == EWOULDBLOCK else { return Date().timeIntervalSince(start) }
                    var byte = UInt8(ascii: "x")
                    if Glibc.send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 { return Date().timeIntervalSince(start) }
                }
            }
            return nil
        }
    }

    /// Connects, sends a whole GET request for `path` and returns the open socket without
    /// reading the answer: the caller hangs up with `close` whenever it likes, as a client that
    /// stops waiting does.
    static func startRequest(_ path: String, port: Int) async throws -> Int32 {
        try await onOwnThread {
            let fd = try connected(port: port, receiveTimeout: 30)
            let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard sent == bytes.count else {
                close(fd)
                throw Failure(description: "send: errno \(errno)")
            }
            return fd
        }
    }

    /// A socket connected to 127.0.0.1:`port`, reads timing out after `receiveTimeout` seconds.
    private static func connected(port: Int, receiveTimeout: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        return fd
    }

    private static func sendBlocking(
        _ method: String, _ path: String, port: Int, headers: [String: String], body: [UInt8]
    ) throws -> Response {
        // Generous: a full CI run has stalled every process for a minute (this catches a hang).
        let fd = try connected(port: port, receiveTimeout: 180)
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !body.isEmpty { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "recv: errno \(errno)") }
            if n == 0 { break }
            received += buffer[..<n]
        }
        return try parse(received, isHead: method == "HEAD")
    }

    /// Status line, headers and body of a whole response.
    static func parse(_ bytes: [UInt8], isHead: Bool) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "no end of headers in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if isHead || status == 304 { body = [] } else if let length = headers["content-length"].flatMap(Int.init) {
            guard body.count == length else { throw Failure(description: "body \(body.count) bytes, Content-Length \(length)") }
        }
        return Response(status: status, headers: headers, body: body)
    }
}
