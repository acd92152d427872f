@testable import DarkroomCache
import DarkroomCore
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Memory pressure

@Suite("The memory cache empties on demand and on a POSIX signal until the subscription is cancelled", .serialized)
struct MemoryPressureTests {
    typealias T = MemoryTestImages

    @Test("purgeAll empties the cache and frees its usage")
    func purgeAll() throws {
        let cache = AutoPurgingImageCache()
        for i in 0..<5 { cache.add(T.image(bytes: 64, key: i), for: "s", withIdentifier: "\(i)") }
        cache.purgeAll()
        #expect(cache.count == 0 && cache.memoryUsage == 0)
        #expect(cache.image(for: "s", withIdentifier: "0") == nil)
        try cache.validateInvariants()
    }

    /// Makes sure a stray `SIGUSR2` cannot terminate the test process, without replacing a
    /// handler already installed (Dispatch's, from an earlier subscription: replacing it
    /// would silence every later subscription).
    func ignoreSIGUSR2UnlessHandled() {
        let previous = signal(SIGUSR2, SIG_IGN)
        if previous != nil { signal(SIGUSR2, previous) }
    }

    /// Sends `SIGUSR2` to this process, as `kill -USR2 <pid>` does. Not `raise`: that aims
    /// the signal at the calling thread, and the test runs on a Dispatch worker thread, which
    /// blocks signals, so a thread-directed signal would stay pending there forever.
    func sendSIGUSR2() {
        kill(getpid(), SIGUSR2)
    }

    @Test("SIGUSR2 sent to the process purges the cache; after cancel it no longer does")
    func purgeOnSignal() async throws {
        ignoreSIGUSR2UnlessHandled()
        let cache = AutoPurgingImageCache()
        for i in 0..<5 { cache.add(T.image(bytes: 64, key: i), withIdentifier: "\(i)") }
        let purged = Mutex<[Int]>([])
        let subscription = cache.purgeOnSignal(SIGUSR2) { removed in purged.withLock { $0.append(removed) } }
        #expect(subscription.signal == SIGUSR2)

        // The source registers asynchronously: raise until the purge shows (at most ~3 s).
        for _ in 0..<60 where purged.withLock({ $0.isEmpty }) {
            sendSIGUSR2()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(purged.withLock { $0.first } == 5)
        #expect(cache.count == 0 && cache.memoryUsage == 0)

        subscription.cancel()
        #expect(subscription.isCancelled)
        try await Task.sleep(for: .milliseconds(50))  // let any signal still in flight land
        let purgesBefore = purged.withLock { $0.count }
        cache.add(T.image(bytes: 64), withIdentifier: "kept")
        sendSIGUSR2()
        try await Task.sleep(for: .milliseconds(200))
        #expect(purged.withLock { $0.count } == purgesBefore)
        #expect(cache.count == 1)
    }

    @Test("subscribing again after a cancel, and several caches on one signal, all purge")
    func severalSubscriptions() async throws {
        ignoreSIGUSR2UnlessHandled()
        let first = AutoPurgingImageCache(), second = AutoPurgingImageCache()
        let cancelled = first.purgeOnSignal(SIGUSR2)
        cancelled.cancel()
        let subscriptions = [first.purgeOnSignal(SIGUSR2), second.purgeOnSignal(SIGUSR2)]
        first.add(T.image(bytes: 64), withIdentifier: "a")
        second.add(T.image(bytes: 64), withIdentifier: "b")
        for _ in 0..<60 where first.count + second.count > 0 {
            sendSIGUSR2()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(first.count == 0 && second.count == 0)
        subscriptions.forEach { $0.cancel() }
    }
}
