import CCurlShims
import DarkroomCore
import Foundation

// MARK: - CurlEventLoop

/// One thread running libcurl's multi interface for many transfers at once: connections are
/// kept alive and reused, HTTP/2 multiplexes where offered.
///
/// - **Thread.** Started on the first transfer; it loops `curl_multi_poll` /
///   `curl_multi_perform`, and exits after ``idleExit`` seconds with nothing to do, or at once
///   after ``shutdown()``. A later transfer starts a new one. The multi handle is made on the
///   first transfer (so an ``HTTPSource`` that never fetches never loads libcurl); it (and its
///   connection cache) lives as long as the loop.
/// - **Other threads** never touch the multi handle: ``perform(_:)`` queues a transfer and
///   calls `curl_multi_wakeup` (the one multi function that is safe from any thread); the loop
///   thread adds it. Cancellation queues the transfer for removal the same way; the loop
///   thread calls `curl_multi_remove_handle`, which closes the connection mid-body (the
///   server sees the abort) and resumes the waiting task with ``DarkroomError/cancelled``.
/// - **Lock.** `@unchecked Sendable` because one `NSLock` guards every mutable property shared
///   between threads (`pending`, `cancelling`, `threadRunning`, `stopping`, and each
///   transfer's `continuation` / `cancelRequested`); `active` belongs to the loop thread alone.
final class CurlEventLoop: @unchecked Sendable {
    /// Made on the first transfer, under `lock`, and never changed afterwards.
    private var multiHandle: UnsafeMutableRawPointer?
    private let lock = NSLock()
    private var pending: [CurlTransfer] = []
    private var cancelling: [CurlTransfer] = []
    private var threadRunning = false
    private var stopping = false
    /// Loop thread only: transfers in the multi handle, by easy handle.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Seconds without transfers after which the thread exits.
    let idleExit: Double

    private static let globalInit: Int32 = ccurl_global_init()

    init(idleExit: Double = 2) {
        self.idleExit = idleExit
    }

    deinit {
        // The thread holds a strong reference while it runs, so it has exited by now.
        if let multiHandle { ccurl_multi_cleanup(multiHandle) }
    }

    /// With `lock` held: the multi handle, made (after libcurl's global init) on the first
    /// call; `nil` when libcurl cannot make one.
    private func makeMultiHandle() -> UnsafeMutableRawPointer? {
        if let multiHandle { return multiHandle }
        _ = Self.globalInit
        guard let made = ccurl_multi_init() else { return nil }
        _ = ccurl_multi_setopt_long(made, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(made, CURLMOPT_MAXCONNECTS, 64)
        multiHandle = made
        return made
    }

    /// Whether the loop thread is running (for tests: no thread outlives its work).
    var isThreadRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return threadRunning
    }

    // MARK: - Transfers

    /// Runs `transfer` to its end. Task cancellation aborts it at once and throws
    /// ``DarkroomError/cancelled``.
    func perform(_ transfer: CurlTransfer) async throws -> CurlResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                submit(transfer, continuation)
            }
        } onCancel: {
            cancel(transfer)
        }
    }

    private func submit(_ transfer: CurlTransfer, _ continuation: CheckedContinuation<CurlResponse, any Error>) {
        lock.lock()
        if transfer.cancelRequested || stopping {
            lock.unlock()
            continuation.resume(throwing: DarkroomError.cancelled)
            return
        }
        guard let multi = makeMultiHandle() else {
            lock.unlock()
            continuation.resume(throwing: DarkroomError.fetchFailed(
                url: "", status: nil, reason: "libcurl could not create a multi handle"))
            return
        }
        transfer.continuation = continuation
        pending.append(transfer)
        let startThread = !threadRunning
        threadRunning = true
        lock.unlock()
        if startThread {
            let thread = Thread { [self] in run() }
            thread.name = "darkroom.http"
            thread.start()
        } else {
            ccurl_multi_wakeup(multi)
        }
    }

    private func cancel(_ transfer: CurlTransfer) {
        lock.lock()
        transfer.cancelRequested = true
        var resumeNow: CheckedContinuation<CurlResponse, any Error>?
        if let index = pending.firstIndex(where: { $0 === transfer }) {
            pending.remove(at: index)
            resumeNow = transfer.continuation
            transfer.continuation = nil
        } else if transfer.continuation != nil {
            cancelling.append(transfer)
        }
        let multi = multiHandle
        lock.unlock()
        if let resumeNow {
            resumeNow.resume(throwing: DarkroomError.cancelled)
        } else if let multi {
            ccurl_multi_wakeup(multi)
        }
    }

    /// Stops the thread as soon as it wakes; transfers still running are cancelled.
    func shutdown() {
        lock.lock()
        stopping = true
        let multi = multiHandle
        lock.unlock()
        if let multi { ccurl_multi_wakeup(multi) }
    }

    // MARK: - The loop thread

    private func run() {
        lock.lock()
        // Set by submit before it started this thread.
        guard let multi = multiHandle else {
            threadRunning = false
            lock.unlock()
            return
        }
        lock.unlock()
        var idleSince = Date()
        while true {
            lock.lock()
            let adding = pending
            pending.removeAll()
            let removing = cancelling
            cancelling.removeAll()
            let stop = stopping
            if !stop && adding.isEmpty && active.isEmpty && Date().timeIntervalSince(idleSince) >= idleExit {
                threadRunning = false
                lock.unlock()
                return
            }
            lock.unlock()

            for transfer in adding {
                let code = ccurl_multi_add_handle(multi, transfer.easy)
                if code == CURLM_OK {
                    active[transfer.easy] = transfer
                } else {
                    let message = String(cString: ccurl_multi_strerror(code))
                    finish(transfer, with: .failure(DarkroomError.fetchFailed(
                        url: "", status: nil, reason: "libcurl refused the transfer: \(message)")))
                }
            }
            for transfer in removing where active[transfer.easy] != nil {
                abort(transfer, with: DarkroomError.cancelled, in: multi)
            }
            if stop {
                for transfer in Array(active.values) { abort(transfer, with: DarkroomError.cancelled, in: multi) }
                lock.lock()
                // Transfers submitted after `stopping` was set were refused in submit.
                let late = pending
                pending.removeAll()
                threadRunning = false
                lock.unlock()
                for transfer in late { finish(transfer, with: .failure(DarkroomError.cancelled)) }
                return
            }

            var running: Int32 = 0
            let busy = !active.isEmpty
            ccurl_multi_perform(multi, &running)
            collectFinished(multi)
            if busy { idleSince = Date() }
            var ready: Int32 = 0
            ccurl_multi_poll(multi, nil, 0, active.isEmpty ? 250 : 1000, &ready)
        }
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // `data.result` shares a union with `data.whatever`; read the CURLcode.
            let code = message.pointee.data.result
            guard let transfer = active.removeValue(forKey: easy) else { continue }
            ccurl_multi_remove_handle(multi, easy)
            finish(transfer, with: .success(transfer.response(code: code)))
        }
    }

    private func abort(_ transfer: CurlTransfer, with error: DarkroomError, in multi: UnsafeMutableRawPointer) {
        active.removeValue(forKey: transfer.easy)
        ccurl_multi_remove_handle(multi, transfer.easy)
        finish(transfer, with: .failure(error))
    }

    private func finish(_ transfer: CurlTransfer, with result: Result<CurlResponse, any Error>) {
        lock.lock()
        let continuation = transfer.continuation
        transfer.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}
