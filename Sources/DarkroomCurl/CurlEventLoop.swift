import CCurlShims
import DarkroomCore
import Foundation

// MARK: - CurlEventLoop

/// One thread running libcurl's multi interface for many transfers at once: connections are
/// kept alive and reused, HTTP/2 multiplexes where offered.
///
/// - **Thread.** Started on the first transfer; it loops `curl_multi_poll` /
///   `curl_multi_perform`, and exits after ``idleExit`` seconds with nothing to do, or at once
///   after ``shutdown()``. A later transfer starts a new one. The multi handle (and its
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
    private let multi: UnsafeMutableRawPointer
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
        _ = Self.globalInit
        multi = curl_multi_init()!
        self.idleExit = idleExit
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 64)
    }

    deinit {
        // The thread holds a strong reference while it runs, so it has exited by now.
        curl_multi_cleanup(multi)
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
            curl_multi_wakeup(multi)
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
        lock.unlock()
        if let resumeNow {
            resumeNow.resume(throwing: DarkroomError.cancelled)
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Stops the thread as soon as it wakes; transfers still running are cancelled.
    func shutdown() {
        lock.lock()
        stopping = true
        lock.unlock()
        curl_multi_wakeup(multi)
    }

    // MARK: - The loop thread

    private func run() {
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
                let code = curl_multi_add_handle(multi, transfer.easy)
                if code == CURLM_OK {
                    active[transfer.easy] = transfer
                } else {
                    let message = String(cString: curl_multi_strerror(code))
                    finish(transfer, with: .failure(DarkroomError.fetchFailed(
                        url: "", status: nil, reason: "libcurl refused the transfer: \(message)")))
                }
            }
            for transfer in removing where active[transfer.easy] != nil {
                abort(transfer, with: DarkroomError.cancelled)
            }
            if stop {
                for transfer in Array(active.values) { abort(transfer, with: DarkroomError.cancelled) }
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
            curl_multi_perform(multi, &running)
            collectFinished()
            if busy { idleSince = Date() }
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, active.isEmpty ? 250 : 1000, &ready)
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // `data.result` shares a union with `data.whatever`; read the CURLcode.
            let code = message.pointee.data.result
            guard let transfer = active.removeValue(forKey: easy) else { continue }
            curl_multi_remove_handle(multi, easy)
            finish(transfer, with: .success(transfer.response(code: code)))
        }
    }

    private func abort(_ transfer: CurlTransfer, with error: DarkroomError) {
        active.removeValue(forKey: transfer.easy)
        curl_multi_remove_handle(multi, transfer.easy)
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
