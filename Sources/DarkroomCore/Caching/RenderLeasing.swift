// MARK: - RenderLeasing

/// A cache layer shared by several processes that can also say *who renders* a missing
/// entry, so a cluster renders each variant once: the first process to ask takes a lease
/// (memcached's atomic `add` with an expiry), the others wait for the entry to appear in the
/// layer. A process that dies holding a lease delays the others by at most its expiry.
///
/// Contract:
/// - ``acquireLease(for:)`` is atomic across processes and returns `true` to exactly one
///   caller per key while the lease lasts; a layer that cannot tell (down, timed out) throws,
///   and the engine then renders itself (it never waits on a broken layer).
/// - ``leaseDuration`` bounds how long the others wait before rendering themselves.
///
/// ```swift
/// if try await shared.acquireLease(for: key) { render(); try await shared.releaseLease(for: key) }
/// ```
public protocol RenderLeasing: ImageCache {
    /// How long a lease lasts, in seconds: the longest the others wait for its holder.
    var leaseDuration: Double { get }

    /// Takes the lease on rendering `key`: `true` when this process should render it.
    func acquireLease(for key: CacheKey) async throws -> Bool

    /// Gives the lease up (after storing the render, or after failing to).
    func releaseLease(for key: CacheKey) async throws
}
