import Foundation

// MARK: - Blocking work off the cooperative pool

/// Runs blocking work (waiting for a child process, starting a server) on a thread of its own
/// and awaits it, so that it never holds one of the few threads of Swift's cooperative pool —
/// on a 2-core machine a test blocking there for minutes stalls every other running test.
///
/// ```swift
/// let result = try await onOwnThread { try runSwiftBuild() }
/// ```
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
