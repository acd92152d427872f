import Foundation
import Glibc

// MARK: - RawMemcached

/// memcached's text protocol over one blocking socket: what the tests use to damage items
/// behind the layer's back (another key's value, a value cut short, a foreign value).
enum RawMemcached {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func get(_ key: String, port: Int) throws -> [UInt8]? {
        let reply = try exchange(Array("get \(key)\r\n".utf8), port: port, until: Array("END\r\n".utf8))
        guard let headerEnd = find(Array("\r\n".utf8), in: reply), reply.starts(with: Array("VALUE ".utf8)) else { return nil }
        let header = String(decoding: reply[..<headerEnd], as: UTF8.self).split(separator: " ")
        guard header.count >= 4, let count = Int(header[3]) else { throw Failure(message: "bad reply") }
        return Array(reply[(headerEnd + 2)..<(headerEnd + 2 + count)])
    }

    static func set(_ key: String, _ value: [UInt8], port: Int) throws {
        let command = Array("set \(key) 0 3600 \(value.count)\r\n".utf8) + value + Array("\r\n".utf8)
        let reply = try exchange(command, port: port, until: Array("\r\n".utf8))
        guard reply.starts(with: Array("STORED".utf8)) else { throw Failure(message: String(decoding: reply, as: UTF8.self)) }
    }

    static func delete(_ key: String, port: Int) throws {
        let reply = try exchange(Array("delete \(key)\r\n".utf8), port: port, until: Array("\r\n".utf8))
        guard reply.starts(with: Array("DELETED".utf8)) || reply.starts(with: Array("NOT_FOUND".utf8)) else {
            throw Failure(message: String(decoding: reply, as: UTF8.self))
        }
    }

    static func copy(from source: String, to destination: String, port: Int) throws {
        guard let value = try get(source, port: port) else { throw Failure(message: "\(source) is not stored") }
        try set(destination, value, port: port)
    }

    static func truncate(_ key: String, keeping count: Int, port: Int) throws {
        guard let value = try get(key, port: port) else { throw Failure(message: "\(key) is not stored") }
        try set(key, Array(value.prefix(count)), port: port)
    }

    // MARK: - Socket

    private static func exchange(_ request: [UInt8], port: Int, until terminator: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(message: "connect to \(port)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(message: "send") }
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !(reply.count >= terminator.count && Array(reply.suffix(terminator.count)) == terminator) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(message: "recv") }
            reply += buffer[..<n]
        }
        return reply
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}
