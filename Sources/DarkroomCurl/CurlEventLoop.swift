import CCurlShims
import DarkroomCore
import Glibc
import Synchronization

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
/// - **Lock.** `@unchecked Sendable` because one `Mutex` guards every mutable property shared
///   between threads (`pending`, `cancelling`, `threadRunning`, `stopping`, and each
///   transfer's `continuation` / `cancelRequested`); `active` belongs to the loop thread alone.
final class CurlEventLoop: @unchecked Sendable {
    /// Made on the first transfer, under `lock`, and never changed afterwards.
    private var multiHandle: UnsafeMutableRawPointer?
    /// Guards the fields above and below (not a value of its own).
    private let lock = Mutex(())
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
        lock.withLock { _ in threadRunning }
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
        enum Outcome { case refused, noMultiHandle, queued(startThread: Bool, multi: UnsafeMutableRawPointer) }
        let outcome: Outcome = lock.withLock { _ in
            if transfer.cancelRequested || stopping { return .refused }
            guard let multi = makeMultiHandle() else { return .noMultiHandle }
            transfer.continuation = continuation
            pending.append(transfer)
            let startThread = !threadRunning
            threadRunning = true
            return .queued(startThread: startThread, multi: multi)
        }
        switch outcome {
        case .refused:
            continuation.resume(throwing: DarkroomError.cancelled)
        case .noMultiHandle:
            continuation.resume(throwing: DarkroomError.fetchFailed(
                url: "", status: nil, reason: "libcurl could not create a multi handle"))
        case .queued(startThread: true, _):
            guard !startLoopThread() else { return }
            // Out of threads: fail this transfer and any queued meanwhile behind the same
            // missing thread; a later submit tries to start one again.
            let stranded = lock.withLock { _ in
                threadRunning = false
                defer { pending.removeAll() }
                return pending
            }
            for queued in stranded {
                finish(queued, with: .failure(DarkroomError.fetchFailed(
                    url: "", status: nil, reason: "no thread could be started for libcurl's event loop")))
            }
        case .queued(startThread: false, let multi):
            ccurl_multi_wakeup(multi)
        }
    }

    /// Starts the loop thread (named `darkroom.http`), which holds `self` while it runs; false
    /// when the process can make no more threads.
    private func startLoopThread() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            ccurl_name_current_thread("darkroom.http")
            Unmanaged<CurlEventLoop>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<CurlEventLoop>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func cancel(_ transfer: CurlTransfer) {
        let (resumeNow, multi) = lock.withLock { _ -> (CheckedContinuation<CurlResponse, any Error>?, UnsafeMutableRawPointer?) in
            transfer.cancelRequested = true
            var resumeNow: CheckedContinuation<CurlResponse, any Error>?
            if let index = pending.firstIndex(where: { $0 === transfer }) {
                pending.remove(at: index)
                resumeNow = transfer.continuation
                transfer.continuation = nil
            } else if transfer.continuation != nil {
                cancelling.append(transfer)
            }
            return (resumeNow, multiHandle)
        }
        if let resumeNow {
            resumeNow.resume(throwing: DarkroomError.cancelled)
        } else if let multi {
            ccurl_multi_wakeup(multi)
        }
    }

    /// Stops the thread as soon as it wakes; transfers still running are cancelled.
    func shutdown() {
        let multi = lock.withLock { _ in
            stopping = true
            return multiHandle
        }
        if let multi { ccurl_multi_wakeup(multi) }
    }

    // MARK: - The loop thread

    private func run() {
        // Set by submit before it started this thread.
        let handle = lock.withLock { _ in
            if multiHandle == nil { threadRunning = false }
            return multiHandle
        }
        guard let multi = handle else { return }
        let idleLimit = Duration.seconds(idleExit)
        var idleSince = ContinuousClock.now
        while true {
            let (adding, removing, stop, exit) = lock.withLock { _ -> ([CurlTransfer], [CurlTransfer], Bool, Bool) in
                let adding = pending
                pending.removeAll()
                let removing = cancelling
                cancelling.removeAll()
                if !stopping && adding.isEmpty && active.isEmpty && ContinuousClock.now - idleSince >= idleLimit {
                    threadRunning = false
                    return ([], [], false, true)
                }
                return (adding, removing, stopping, false)
            }
            if exit { return }

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
                // Transfers submitted after `stopping` was set were refused in submit.
                let late = lock.withLock { _ in
                    threadRunning = false
                    defer { pending.removeAll() }
                    return pending
                }
                for transfer in late { finish(transfer, with: .failure(DarkroomError.cancelled)) }
                return
            }

            var running: Int32 = 0
            let busy = !active.isEmpty
            ccurl_multi_perform(multi, &running)
            collectFinished(multi)
            if busy { idleSince = ContinuousClock.now }
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
        let continuation = lock.withLock { _ in
            defer { transfer.continuation = nil }
            return transfer.continuation
        }
        continuation?.resume(with: result)
    }
}
