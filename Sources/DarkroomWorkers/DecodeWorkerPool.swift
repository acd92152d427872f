import CoreMetrics
import DarkroomCore
import Dispatch
import Glibc
import Synchronization

// MARK: - DecodeWorkerPool

/// Decodes in worker processes, as Chrome and Android decode untrusted images out of process:
/// an abort, a segfault, an allocation past the worker's memory cap or a decode past the
/// timeout ends that one decode with a clear error (`DarkroomError.decodeFailed`, which a
/// server answers 422) and the worker is replaced, while the process that asked goes on.
///
/// Workers are the same executable started with ``DecodeWorker/argument`` (its `main` calls
/// ``DecodeWorker/runIfAsked(registry:arguments:)``), started on first use, one per concurrent
/// decode up to ``Configuration/workers``. Each gets a Unix socket for jobs and answers and a
/// shared-memory file for the pixels, which are copied once out of it rather than streamed
/// through a pipe. ``IsolatedDecoder`` puts a pool in front of a registry's decoders.
///
/// ```swift
/// let pool = DecodeWorkerPool(configuration: .init(executable: "/usr/local/bin/darkroom-server"))
/// let image = try pool.decode(bytes, header: try ImageProbe.probe(bytes), options: DecodeOptions())
/// ```
public final class DecodeWorkerPool: Sendable {
    /// How many workers, how much memory each, how long a decode may take.
    public struct Configuration: Sendable {
        /// The executable started as a worker (one whose `main` calls `DecodeWorker.runIfAsked`).
        public var executable: String
        /// The most workers at once (each serves one decode at a time).
        public var workers: Int
        /// Each worker's data segment, in bytes (`RLIMIT_DATA`); an allocation past it fails in the worker.
        public var memoryLimit: Int
        /// Seconds a decode may take before its worker is killed.
        public var timeout: Double
        /// Decodes a worker serves before it is replaced, as php-fpm's `pm.max_requests`: what a
        /// decoder library leaks (libavif through libgd: about 465 bytes an AVIF) stays bounded.
        public var decodesPerWorker: Int

        /// A configuration of `workers` workers of `executable`, each capped at `memoryLimit`
        /// bytes (default 2 GiB) and `timeout` seconds a decode (default 30), each replaced after
        /// `decodesPerWorker` decodes (default 1,000).
        public init(executable: String, workers: Int = 2, memoryLimit: Int = 2 << 30, timeout: Double = 30, decodesPerWorker: Int = 1_000) {
            self.executable = executable
            self.workers = max(1, workers)
            self.memoryLimit = memoryLimit
            self.timeout = timeout
            self.decodesPerWorker = max(1, decodesPerWorker)
        }
    }

    /// What a test may ask a worker to do instead of decoding: the failures the pool contains.
    public enum Fault: Codable, Sendable, Hashable {
        /// `abort()`, as a failed assertion in a C library does.
        case abort
        /// Never answer, as a decoder in an endless loop.
        case hang
        /// Allocate and touch this many bytes (past the cap: the worker dies, as a Swift
        /// allocation failure does).
        case allocate(Int)
    }

    /// A running worker: its process, its end of the socket and the shared memory.
    struct Worker: Sendable {
        let pid: pid_t
        let socket: Int32
        let sharedMemory: Int32
        /// Decodes it answered.
        var decodes = 0
    }

    private struct State {
        var idle: [Worker] = []
        var busy: [pid_t] = []
        var started = 0
    }

    /// The pool's workers, memory cap and timeout.
    public let configuration: Configuration
    private let state = Mutex(State())
    private let slots: DispatchSemaphore
    private let failures: (crash: Counter, timeout: Counter)

    /// A pool with `configuration`, counting failed workers in
    /// `darkroom_decode_worker_failures_total{reason="crash"|"timeout"}` through `metricsFactory`
    /// (default: the global one).
    public init(configuration: Configuration, metricsFactory: (any MetricsFactory)? = nil) {
        self.configuration = configuration
        slots = DispatchSemaphore(value: configuration.workers)
        let factory = metricsFactory ?? MetricsSystem.factory
        let label = "darkroom_decode_worker_failures_total"
        failures = (
            Counter(label: label, dimensions: [("reason", "crash")], factory: factory),
            Counter(label: label, dimensions: [("reason", "timeout")], factory: factory)
        )
    }

    deinit {
        for worker in state.withLock({ $0.idle }) { Self.stop(worker, killing: false) }
    }

    /// The process IDs of the workers decoding now (for operators, and tests that kill one).
    public var busyWorkers: [pid_t] { state.withLock { $0.busy } }
    /// The process IDs of every running worker, idle or decoding.
    public var workers: [pid_t] { state.withLock { $0.idle.map(\.pid) + $0.busy } }
    /// Workers started so far, replacements included.
    public var startedWorkers: Int { state.withLock { $0.started } }

    // MARK: - Decoding

    /// Decodes `bytes` (probed as `header`) in a worker, with `options`; warnings come back to
    /// `options.warnings`. Blocks the calling thread until the answer.
    /// - Throws: the decoder's own `DarkroomError`, or `DarkroomError.decodeFailed` naming
    ///   how the worker failed (died by a signal, timed out, could not start).
    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions, fault: Fault? = nil) throws -> Image {
        slots.wait()
        defer { slots.signal() }
        var worker = try checkOut(format: header.format)
        let job = WorkerJob(format: header.format, byteCount: bytes.count, options: options, fault: fault)
        guard let message = try? WorkerFraming.encode(job),
            message.withUnsafeBytes({ WorkerFraming.send($0, to: worker.socket) }),
            bytes.withUnsafeBytes({ WorkerFraming.send($0, to: worker.socket) })
        else { throw failed(worker, format: header.format) }
        var ready = pollfd(fd: worker.socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: Int((configuration.timeout * 1000).rounded(.up)))
        var polled: Int32
        repeat { polled = poll(&ready, 1, milliseconds) } while polled < 0 && errno == EINTR
        guard polled > 0 else {
            failures.timeout.increment()
            Self.stop(worker, killing: true)
            release(worker, keeping: false)
            throw DarkroomError.decodeFailed(
                header.format, detail: "the decoder worker took longer than \(Self.seconds(configuration.timeout)) s and was stopped")
        }
        guard let outcome = WorkerFraming.receiveMessage(WorkerOutcome.self, from: worker.socket) else {
            throw failed(worker, format: header.format)
        }
        worker.decodes += 1
        defer { retire(worker) }
        for warning in outcome.warnings { options.warnings?(warning) }
        if let error = outcome.error { throw error }
        if let other = outcome.otherError { throw DarkroomError.decodeFailed(header.format, detail: other) }
        return try pixels(of: outcome, from: worker, format: header.format)
    }

    /// The image whose pixels (every frame's, for an animation) the worker left in its shared
    /// memory, which is emptied after.
    private func pixels(of outcome: WorkerOutcome, from worker: Worker, format: ImageFormat) throws -> Image {
        let count = outcome.byteCount
        defer { _ = ftruncate(worker.sharedMemory, 0) }
        let later = outcome.laterFramesAlpha ?? []
        let frameBytes = outcome.width * outcome.height * Image.bytesPerPixel
        guard outcome.width > 0, outcome.height > 0, count == frameBytes * (later.count + 1),
            later.isEmpty || outcome.timings?.count == later.count + 1,
            let mapping = mmap(nil, count, PROT_READ, MAP_SHARED | MAP_POPULATE, worker.sharedMemory, 0), mapping != MAP_FAILED
        else { throw DarkroomError.decodeFailed(format, detail: "the decoder worker's answer does not match its pixels") }
        defer { munmap(mapping, count) }
        func frame(_ index: Int, hasAlpha: Bool) -> Image {
            Image(width: outcome.width, height: outcome.height, hasAlpha: hasAlpha) { buffer in
                buffer.baseAddress!.initialize(
                    from: mapping.assumingMemoryBound(to: UInt8.self) + index * frameBytes, count: frameBytes)
            }
        }
        var image = frame(0, hasAlpha: outcome.hasAlpha)
        if !later.isEmpty, let timings = outcome.timings {
            image.animation = try Animation(
                loopCount: outcome.loopCount ?? 0, timings: timings,
                laterFrames: later.enumerated().map { frame($0.offset + 1, hasAlpha: $0.element) }, size: image.size)
        }
        return outcome.shrunkFrom.map { image.shrunk(from: $0) } ?? image
    }

    // MARK: - Workers

    /// An idle worker still alive (one that died while idle — the kernel's OOM killer, an
    /// operator — is reaped and not blamed on this decode), else a new one.
    private func checkOut(format: ImageFormat) throws -> Worker {
        while let worker = state.withLock({ state -> Worker? in
            guard let worker = state.idle.popLast() else { return nil }
            state.busy.append(worker.pid)
            return worker
        }) {
            var status: Int32 = 0
            guard waitpid(worker.pid, &status, WNOHANG) == worker.pid else { return worker }
            close(worker.socket)
            close(worker.sharedMemory)
            release(worker, keeping: false)
        }
        let worker: Worker
        do {
            worker = try WorkerLauncher.start(configuration)
        } catch {
            throw DarkroomError.decodeFailed(format, detail: "cannot start a decoder worker: \(error)")
        }
        state.withLock {
            $0.busy.append(worker.pid)
            $0.started += 1
        }
        return worker
    }

    /// Back to the idle workers after a decode, or stopped once it has served its share.
    private func retire(_ worker: Worker) {
        let keeping = worker.decodes < configuration.decodesPerWorker
        release(worker, keeping: keeping)
        if !keeping { Self.stop(worker, killing: false) }
    }

    private func release(_ worker: Worker, keeping: Bool) {
        state.withLock { state in
            state.busy.removeAll { $0 == worker.pid }
            if keeping { state.idle.append(worker) }
        }
    }

    /// The error for a worker that stopped answering: it is reaped, and how it ended is said.
    private func failed(_ worker: Worker, format: ImageFormat) -> DarkroomError {
        failures.crash.increment()
        let ending = Self.stop(worker, killing: false)
        release(worker, keeping: false)
        let cap = "\(configuration.memoryLimit >> 20) MB"
        return DarkroomError.decodeFailed(
            format, detail: "the decoder worker \(ending): the decoder crashed, or needed more than its \(cap) memory cap")
    }

    /// Closes the worker's descriptors and waits for it to end (killing it first if asked);
    /// returns how it ended: "died of signal 6 (Aborted)", "exited with status 1".
    @discardableResult
    static func stop(_ worker: Worker, killing: Bool) -> String {
        if killing { kill(worker.pid, SIGKILL) }
        close(worker.socket)
        close(worker.sharedMemory)
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(worker.pid, &status, 0) } while waited < 0 && errno == EINTR
        guard waited == worker.pid else { return "ended" }
        let signal = status & 0x7f
        if signal != 0 { return "died of signal \(signal) (\(String(cString: strsignal(signal))))" }
        return "exited with status \((status >> 8) & 0xff)"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
