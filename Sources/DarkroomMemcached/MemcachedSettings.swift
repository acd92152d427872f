import Darkroom

// MARK: - MemcachedSettings

/// A `[caches.NAME] type = "memcached"` table.
///
/// ```toml
/// [caches.shared]
/// type = "memcached"
/// servers = ["127.0.0.1:11211", "127.0.0.1:11212"]   # ketama-hashed, binary protocol
/// max-age = "7d"             # item expiry (default 7 days)
/// timeout = "50ms"           # connect and per-operation; a slow cache is a miss (default 50 ms)
/// max-connections = 16       # the connection pool's size (default 16)
/// lease = "10s"              # one server renders a missing variant; the others wait this long at most
/// ```
public struct MemcachedSettings: Sendable, Hashable {
    /// One memcached server's address.
    public struct Server: Sendable, Hashable {
        /// The host name or IP address (an IPv6 address without its brackets).
        public var host: String
        /// The TCP port, from 1 to 65535 (memcached's usual one is 11211).
        public var port: Int

        /// The server at `host` on `port`.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// The servers, which items are spread over by ketama consistent hashing (at least one).
    public var servers: [Server]
    /// Item expiry, in seconds (memcached takes up to 30 days as a relative time).
    public var maxAge: Int = 7 * 24 * 3600
    /// Connect, poll, send and receive timeout, in seconds.
    public var timeout: Double = 0.05
    /// The most connections the pool opens (default 16).
    public var maxConnections: Int = 16
    /// How long a render lease lasts, in seconds: the longest other servers wait for a render
    /// another server took on before rendering it themselves.
    public var lease: Double = 10
    /// How long a server that failed is left out before it is tried again, in seconds.
    public var retryAfter: Int = 2

    /// Settings for `servers`, with every other value at its default.
    public init(servers: [Server]) {
        self.servers = servers
    }

    /// The table's keys.
    public static let keys = ["servers", "max-age", "timeout", "max-connections", "lease"]

    /// Reads a table.
    /// - Throws: `ConfigurationError` naming the key's `file:line`.
    public init(table: ConfigTable) throws {
        guard let entries = try table.strings("servers"), !entries.isEmpty else {
            throw table.error("servers", "must list at least one server as \"HOST:PORT\"")
        }
        servers = try entries.map { entry in
            guard let server = Self.server(entry) else {
                throw table.error("servers", "entry '\(entry)' is not HOST:PORT with a port from 1 to 65535")
            }
            return server
        }
        if let seconds = try table.duration("max-age") {
            guard seconds >= 1, seconds <= 30 * 24 * 3600 else { throw table.error("max-age", "must be from 1s to 30d") }
            maxAge = Int(seconds)
        }
        if let seconds = try table.duration("timeout") {
            guard seconds >= 0.001, seconds <= 60 else { throw table.error("timeout", "must be from 1ms to 60s") }
            timeout = seconds
        }
        if let count = try table.integer("max-connections", in: 1...1024) { maxConnections = count }
        if let seconds = try table.duration("lease") {
            guard seconds >= 1, seconds <= 3600 else { throw table.error("lease", "must be from 1s to 1h") }
            lease = seconds
        }
    }

    /// `HOST:PORT`, `[IPv6]:PORT`, or `HOST` (port 11211).
    static func server(_ text: String) -> Server? {
        var host = text, port = 11211
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty, (1...65535).contains(port), !host.contains(where: { $0 == " " || $0 == "," }) else { return nil }
        return Server(host: host, port: port)
    }
}
