import CMemcached
import Darkroom
import Glibc
import Synchronization

// MARK: - MemcachedCache

/// A cache layer shared by every server that names the same memcached servers: libmemcached's
/// own distribution (ketama consistent hashing, the binary protocol, millisecond timeouts,
/// failed servers left out for a while then retried) behind a pool of connections.
///
/// Items are ``MemcachedEntry`` values under `darkroom:` + the key's SHA-256, expiring after
/// `max-age`; every read is verified, so a torn or foreign value is a miss. A slow or absent
/// server is a miss too (the operation times out and throws), never a failed request. An
/// image larger than the server's item limit is not stored (``statistics`` counts it).
///
/// ```swift
/// let shared = try MemcachedCache(settings: MemcachedSettings(servers: [.init(host: "127.0.0.1", port: 11211)]))
/// try await shared.store(CachedImage(bytes: png, format: .png), for: key)
/// ```
public final class MemcachedCache: RenderLeasing, @unchecked Sendable {  // the pool is thread-safe
    public let settings: MemcachedSettings
    private let pool: OpaquePointer
    private let counts = Mutex(Statistics())

    /// What the layer has seen since it was made.
    public struct Statistics: Sendable, Hashable {
        public var hits = 0
        public var misses = 0
        /// Values found but refused by verification (another key's, cut short, foreign).
        public var rejected = 0
        public var errors = 0
        public var timeouts = 0
        public var stored = 0
        /// Renders larger than the server's item limit, not stored.
        public var tooLarge = 0
    }

    /// - Throws: ``MemcachedError`` when libmemcached cannot be loaded or a server not added.
    public init(settings: MemcachedSettings) throws {
        var why = [CChar](repeating: 0, count: 256)
        guard darkroom_memcached_available(&why, why.count) == 1 else {
            let reason = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw MemcachedError(operation: "load libmemcached", message: reason)
        }
        guard let master = dr_memcached_create() else {
            throw MemcachedError(operation: "create a client", message: "out of memory")
        }
        let milliseconds = UInt64(max(1, (settings.timeout * 1000).rounded()))
        let behaviors: [(memcached_behavior_t, UInt64)] = [
            (MEMCACHED_BEHAVIOR_BINARY_PROTOCOL, 1),
            (MEMCACHED_BEHAVIOR_DISTRIBUTION, UInt64(MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA.rawValue)),
            (MEMCACHED_BEHAVIOR_TCP_NODELAY, 1),
            (MEMCACHED_BEHAVIOR_NO_BLOCK, 1),
            (MEMCACHED_BEHAVIOR_CONNECT_TIMEOUT, milliseconds),
            (MEMCACHED_BEHAVIOR_POLL_TIMEOUT, milliseconds),
            (MEMCACHED_BEHAVIOR_SND_TIMEOUT, milliseconds * 1000),
            (MEMCACHED_BEHAVIOR_RCV_TIMEOUT, milliseconds * 1000),
            // A server that fails is left out for retry-after seconds, then tried again.
            (MEMCACHED_BEHAVIOR_SERVER_FAILURE_LIMIT, 1),
            (MEMCACHED_BEHAVIOR_REMOVE_FAILED_SERVERS, 1),
            (MEMCACHED_BEHAVIOR_RETRY_TIMEOUT, UInt64(settings.retryAfter)),
            (MEMCACHED_BEHAVIOR_DEAD_TIMEOUT, UInt64(settings.retryAfter)),
        ]
        for (behavior, value) in behaviors {
            _ = dr_memcached_behavior_set(master, behavior, value)
        }
        for server in settings.servers {
            let rc = dr_memcached_server_add(master, server.host, in_port_t(server.port))
            guard rc == MEMCACHED_SUCCESS else {
                let message = String(cString: dr_memcached_strerror(master, rc))
                dr_memcached_free(master)
                throw MemcachedError(operation: "add server \(server.host):\(server.port)", message: message)
            }
        }
        guard let pool = dr_memcached_pool_create(master, 1, UInt32(settings.maxConnections)) else {
            dr_memcached_free(master)
            throw MemcachedError(operation: "create the connection pool", message: "libmemcached refused")
        }
        self.settings = settings
        self.pool = pool
    }

    deinit {
        if let master = dr_memcached_pool_destroy(pool) { dr_memcached_free(master) }
    }

    public var statistics: Statistics { counts.withLock { $0 } }

    /// The memcached item name of a cache key: short, printable, and the same on every server.
    public static func itemName(_ key: CacheKey) -> String { "darkroom:" + key.persistentName }

    // MARK: - ImageCache

    public func value(for key: CacheKey) throws -> CachedImage? {
        let item = Self.itemName(key)
        // .none: not stored; .some(nil): stored but refused by verification.
        let image: CachedImage?? = try withConnection("get") { memc in
            var length = 0
            var flags: UInt32 = 0
            var rc = MEMCACHED_SUCCESS
            let value = item.withCString { dr_memcached_get(memc, $0, strlen($0), &length, &flags, &rc) }
            guard let value else {
                if rc == MEMCACHED_NOTFOUND { return .none }
                throw self.failure("get", rc, memc)
            }
            defer { free(value) }
            return .some(MemcachedEntry.decode(UnsafeRawBufferPointer(start: value, count: length), key: key))
        }
        let found = image ?? nil
        counts.withLock { counts in
            switch image {
            case .some(.some): counts.hits += 1
            case .some(.none): counts.rejected += 1
            case .none: counts.misses += 1
            }
        }
        return found
    }

    public func store(_ image: CachedImage, for key: CacheKey) throws {
        let item = Self.itemName(key)
        let value = MemcachedEntry.encode(image, key: key)
        try withConnection("set") { memc in
            let rc = item.withCString { name in
                value.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        dr_memcached_set(memc, name, strlen(name), $0.baseAddress, $0.count, time_t(self.settings.maxAge), 0)
                    }
                }
            }
            if rc == MEMCACHED_E2BIG {
                self.counts.withLock { $0.tooLarge += 1 }
                throw MemcachedError(operation: "set", message: "\(value.count) bytes are more than the server's item size limit")
            }
            guard rc == MEMCACHED_SUCCESS else { throw self.failure("set", rc, memc) }
            self.counts.withLock { $0.stored += 1 }
        }
    }

    public func removeValue(for key: CacheKey) throws {
        let item = Self.itemName(key)
        try withConnection("delete") { memc in
            let rc = item.withCString { dr_memcached_delete(memc, $0, strlen($0)) }
            guard rc == MEMCACHED_SUCCESS || rc == MEMCACHED_NOTFOUND else { throw self.failure("delete", rc, memc) }
        }
    }

    // MARK: - RenderLeasing

    public var leaseDuration: Double { settings.lease }

    /// The lease's item name.
    static func leaseName(_ key: CacheKey) -> String { "darkroom:lease:" + key.persistentName }

    public func acquireLease(for key: CacheKey) throws -> Bool {
        let item = Self.leaseName(key)
        let expiry = time_t(settings.lease.rounded(.up))
        return try withConnection("add") { memc in
            let rc = item.withCString { name in dr_memcached_add(memc, name, strlen(name), "1", 1, expiry, 0) }
            if rc == MEMCACHED_SUCCESS { return true }
            if rc == MEMCACHED_NOTSTORED || rc == MEMCACHED_DATA_EXISTS { return false }
            throw self.failure("add", rc, memc)
        }
    }

    public func releaseLease(for key: CacheKey) throws {
        let item = Self.leaseName(key)
        try withConnection("delete") { memc in
            _ = item.withCString { dr_memcached_delete(memc, $0, strlen($0)) }
        }
    }

    // MARK: - Connections

    /// Runs `body` with a connection from the pool (waiting at most the timeout for one).
    private func withConnection<T>(_ operation: String, _ body: (UnsafeMutablePointer<memcached_st>) throws -> T) throws -> T {
        var rc = MEMCACHED_SUCCESS
        let milliseconds = max(1, Int((settings.timeout * 1000).rounded()))
        guard let memc = dr_memcached_pool_fetch(pool, milliseconds, &rc) else {
            counts.withLock { $0.timeouts += 1 }
            throw MemcachedError(operation: operation, message: "no free connection within \(milliseconds) ms")
        }
        defer { _ = dr_memcached_pool_release(pool, memc) }
        return try body(memc)
    }

    private func failure(_ operation: String, _ rc: memcached_return_t, _ memc: UnsafeMutablePointer<memcached_st>) -> MemcachedError {
        counts.withLock { counts in
            if rc == MEMCACHED_TIMEOUT { counts.timeouts += 1 } else { counts.errors += 1 }
        }
        return MemcachedError(operation: operation, message: String(cString: dr_memcached_strerror(memc, rc)))
    }
}

// MARK: - MemcachedError

/// A memcached operation that failed: the engine counts it as a miss.
public struct MemcachedError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "memcached \(operation): \(message)" }
}
