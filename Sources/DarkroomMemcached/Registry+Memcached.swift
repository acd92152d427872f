import Darkroom

// MARK: - The memcached cache kind

extension Registry {
    /// Registers the `memcached` cache kind (see ``MemcachedSettings`` for its table).
    ///
    /// ```swift
    /// var registry = Registry.standard
    /// registry.registerMemcachedCacheKind()
    /// ```
    public mutating func registerMemcachedCacheKind() {
        register(
            cacheKind: "memcached", keys: MemcachedSettings.keys,
            summary: "renders shared by servers on memcached (ketama, binary protocol, timeouts)", origin: "DarkroomMemcached"
        ) { table in
            try MemcachedCache(settings: MemcachedSettings(table: table))
        }
    }
}
