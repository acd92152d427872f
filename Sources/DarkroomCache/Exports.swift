// MARK: - Re-exports

// The vocabulary of this module's API, so `import DarkroomCache` is enough to use it.
@_exported import struct DarkroomCore.CacheKey
@_exported import struct DarkroomCore.CachedImage
@_exported import protocol DarkroomCore.ImageCache
@_exported import protocol DarkroomCore.KeyValueCache
