import CMemcached
import Darkroom
import Glibc
import Synchronization

// MARK: - MemcachedCache

/// A cache layer shared by every server that names the same memcached servers: libmemcached's
/// own distribution (ketama consistent hashing, the binary protocol, millisecond timeouts,
/// failed servers left out for a while then retried) behind a pool of connections.
///
/// Items are `MemcachedEntry` values under `darkroom:` + the key's SHA-256, expiring after
/// `max-age`; every read is verified, so a torn or foreign value is a miss. A slow or absent
/// server is a miss too (the operation times out and throws), never a failed request; after a
/// timeout the layer answers every operation with an error at once for `retryAfter` seconds,
/// then tries the servers again, so a stuck memcached costs one timeout per interval, not one
/// per operation. A purge by source holds on every server at once (a per-source generation
/// read with each entry), and is logged so that every server drops the source from its own
/// layers too (`PurgeLog`). An image larger than the server's item limit is not stored
/// (``statistics`` counts it).
///
/// ```swift
/// let shared = try MemcachedCache(settings: MemcachedSettings(servers: [.init(host: "127.0.0.1", port: 11211)]))
/// try await shared.store(CachedImage(bytes: png, format: .png), for: key)
/// ```
public final class MemcachedCache: RenderLeasing, @unchecked Sendable {  // the pool is thread-safe
    /// The settings the layer was made with: servers, expiry, timeouts, pool size and lease.
    public let settings: MemcachedSettings
    private let pool: OpaquePointer
    let counts = Mutex(Statistics())
    /// Until when the layer answers every operation with an error at once: set by a timeout,
    /// so a stuck or partitioned memcached costs one timeout per `retryAfter` seconds, not
    /// one per operation (libmemcached's own failure tracking is per pooled connection).
    let suspendedUntil = Mutex<ContinuousClock.Instant?>(nil)
    /// Generations read by recent lookups, which the store of the render that follows a miss
    /// tags its entry with (saving a round trip; see ``RecentGenerations``).
    let recentGenerations = RecentGenerations()
    /// Whether the last failure was a timeout (not a refused connection or an error).
    private let lastFailureTimedOut = Mutex(false)
    /// A purge log entry found missing, and since when (``purges(after:)``).
    let missingPurgeEntry = Mutex<(UInt64, ContinuousClock.Instant)?>(nil)

    /// What the layer has seen since it was made.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found a valid entry.
        public var hits = 0
        /// Lookups that found no entry.
        public var misses = 0
        /// Values found but refused by verification (another key's, cut short, foreign).
        public var rejected = 0
        /// Operations that failed other than by timing out (a refused connection, a server error).
        public var errors = 0
        /// Operations that timed out, or found no pooled connection free in time.
        public var timeouts = 0
        /// Operations refused at once while the layer was suspended after a timeout.
        public var skipped = 0
        /// Renders stored on a server.
        public var stored = 0
        /// Renders larger than the server's item limit, not stored.
        public var tooLarge = 0
        /// Sources purged through this layer.
        public var purges = 0
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

    /// The layer's counters since it was made, as of now.
    public var statistics: Statistics { counts.withLock { $0 } }

    /// The memcached item name of a cache key: short, printable, and the same on every server.
    public static func itemName(_ key: CacheKey) -> String { "darkroom:" + key.persistentName }

    // MARK: - ImageCache

    public func value(for key: CacheKey) throws -> CachedImage? {
        // The entry and its source's generation, in one request per server.
        let found = try getMany("get", [Self.itemName(key), Self.generationName(key.source)])
        let image: CachedImage?
        if let generation = found[1], generation.count == MemcachedEntry.generationLength {
            recentGenerations.remember(generation, of: key.source)
        }
        if let entry = found[0], let generation = found[1] {
            image = entry.withUnsafeBytes { MemcachedEntry.decode($0, key: key, generation: generation) }
        } else {
            image = nil
        }
        counts.withLock { counts in
            if image != nil {
                counts.hits += 1
            } else if found[0] != nil {
                counts.rejected += 1  // damaged, foreign, or stored before its source was purged
            } else {
                counts.misses += 1
            }
        }
        return image
    }

    public func store(_ image: CachedImage, for key: CacheKey) throws {
        let item = Self.itemName(key)
        let generation = try recentGenerations.recent(of: key.source) ?? generation(of: key.source)
        let value = MemcachedEntry.encode(image, key: key, generation: generation)
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
    func withConnection<T>(_ operation: String, _ body: (UnsafeMutablePointer<memcached_st>) throws -> T) throws -> T {
        if let until = suspendedUntil.withLock({ $0 }), ContinuousClock.now < until {
            counts.withLock { $0.skipped += 1 }
            // Reported as a timeout (metrics: result "timeout"): it is one, answered early.
            throw MemcachedError(
                operation: operation, message: "skipped: the layer timed out less than \(settings.retryAfter) s ago", isTimeout: true)
        }
        var rc = MEMCACHED_SUCCESS
        let milliseconds = max(1, Int((settings.timeout * 1000).rounded()))
        guard let memc = dr_memcached_pool_fetch(pool, milliseconds, &rc) else {
            counts.withLock { $0.timeouts += 1 }
            throw MemcachedError(operation: operation, message: "no free connection within \(milliseconds) ms", isTimeout: true)
        }
        defer { _ = dr_memcached_pool_release(pool, memc) }
        return try body(memc)
    }

    /// The values of `items` (`nil` for a missing one), fetched with one request per server.
    func getMany(_ operation: String, _ items: [String]) throws -> [[UInt8]?] {
        try withConnection(operation) { memc in
            let names = items.map { strdup($0) }
            defer { names.forEach { free($0) } }
            let lengths = items.map { $0.utf8.count }
            var values = [UnsafeMutablePointer<CChar>?](repeating: nil, count: items.count)
            var valueLengths = [Int](repeating: 0, count: items.count)
            let rc = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { keys in
                dr_memcached_get_many(memc, keys.baseAddress, lengths, items.count, &values, &valueLengths)
            }
            guard rc == MEMCACHED_SUCCESS else { throw self.failure(operation, rc, memc) }
            return zip(values, valueLengths).map { value, length in
                guard let value else { return nil }
                defer { free(value) }
                return Array(UnsafeRawBufferPointer(start: value, count: length))
            }
        }
    }

    /// Stores `value` under `item` (`add`: only when absent), never expiring when `expiry` is 0.
    func write(_ operation: String, _ item: String, _ value: [UInt8], expiry: Int, onlyIfAbsent: Bool = false) throws -> Bool {
        try withConnection(operation) { memc in
            let rc = item.withCString { name in
                value.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        onlyIfAbsent
                            ? dr_memcached_add(memc, name, strlen(name), $0.baseAddress, $0.count, time_t(expiry), 0)
                            : dr_memcached_set(memc, name, strlen(name), $0.baseAddress, $0.count, time_t(expiry), 0)
                    }
                }
            }
            if rc == MEMCACHED_SUCCESS { return true }
            if onlyIfAbsent && (rc == MEMCACHED_NOTSTORED || rc == MEMCACHED_DATA_EXISTS) { return false }
            throw self.failure(operation, rc, memc)
        }
    }

    /// Adds one to the counter `item` (created at `initial` when absent); its new value.
    func increment(_ item: String, initial: UInt64) throws -> UInt64 {
        try withConnection("incr") { memc in
            var value: UInt64 = 0
            let rc = item.withCString { dr_memcached_increment(memc, $0, strlen($0), initial, &value) }
            guard rc == MEMCACHED_SUCCESS else { throw self.failure("incr", rc, memc) }
            return value
        }
    }

    private func failure(_ operation: String, _ rc: memcached_return_t, _ memc: UnsafeMutablePointer<memcached_st>) -> MemcachedError {
        // libmemcached disables a server after a failure until its retry time: when that
        // failure was a timeout, the disabled answer is the same timeout, seen again.
        let disabled = rc == MEMCACHED_SERVER_TEMPORARILY_DISABLED || rc == MEMCACHED_SERVER_MARKED_DEAD || rc == MEMCACHED_NO_SERVERS
        let timedOut = lastFailureTimedOut.withLock { last in
            if rc == MEMCACHED_TIMEOUT {
                last = true
            } else if !disabled {
                last = false
            }
            return rc == MEMCACHED_TIMEOUT || (disabled && last)
        }
        counts.withLock { counts in
            if timedOut { counts.timeouts += 1 } else { counts.errors += 1 }
        }
        if timedOut {
            suspendedUntil.withLock { $0 = ContinuousClock.now + .seconds(settings.retryAfter) }
        }
        return MemcachedError(
            operation: operation, message: String(cString: dr_memcached_strerror(memc, rc)), isTimeout: timedOut)
    }
}

// MARK: - MemcachedError

/// A memcached operation that failed: the engine counts it as a miss.
public struct MemcachedError: CacheLayerError, CustomStringConvertible, Sendable {
    /// What was being done: `get`, `set`, `add server HOST:PORT`, `load libmemcached`, ….
    public var operation: String
    /// Why it failed: libmemcached's error text, or the reason found here.
    public var message: String
    /// The server did not answer within the timeout, or no connection was free in time.
    public var isTimeout = false
    public var description: String { "memcached \(operation): \(message)" }
}
