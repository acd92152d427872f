import Glibc

// MARK: - ConditionLock

/// A POSIX mutex with one condition variable: what `NSLock` and `NSCondition` give, without
/// swift-corelibs-foundation (whose static link brings ICU and ~3,700 protocol conformance
/// records into the `darkroom` binary, and a millisecond to every start; see
/// Docs/Architecture.md).
///
/// `@unchecked Sendable`: the mutex and the condition live at fixed heap addresses for the
/// object's lifetime and are only touched through pthread calls, which are thread-safe.
///
/// ```swift
/// let lock = ConditionLock()
/// lock.lock(); while queue.isEmpty { lock.wait() }; lock.unlock()
/// ```
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// With the lock held: releases it until signalled, then holds it again. Callers loop on
    /// their own predicate (wake-ups may be spurious).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiter.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// With the lock held: releases it until `other` (a condition of this lock's) is
    /// signalled, then holds it again. Wake-ups may be spurious.
    func wait(for other: LockCondition) { pthread_cond_wait(other.condition, mutex) }
}

// MARK: - LockCondition

/// A further condition variable waited on with ``ConditionLock/wait(for:)``: a thread pool
/// gives each thread its own, so that work can wake one chosen thread.
final class LockCondition: @unchecked Sendable {
    fileprivate let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Wakes the thread waiting for this condition (call with the lock held).
    func signal() { pthread_cond_signal(condition) }
}
