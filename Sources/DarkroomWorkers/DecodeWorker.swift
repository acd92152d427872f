import Darkroom
import DarkroomCore
import FoundationEssentials
import Glibc
import Synchronization

// MARK: - DecodeWorker

/// The worker side of ``DecodeWorkerPool``: an executable that calls
/// ``runIfAsked(registry:arguments:)`` first thing becomes a decoder worker when the pool starts it with
/// ``argument``. It reads jobs on its standard input (a socket), decodes each with the
/// registry's decoders, writes the pixels into the shared memory at file descriptor 3 and
/// answers on its standard output, until the pool closes the socket. Its data segment is
/// capped with `setrlimit(RLIMIT_DATA)`, so an allocation past the cap fails in the worker,
/// not in the server.
///
/// ```swift
/// // First thing in main.swift:
/// DecodeWorker.runIfAsked(registry: .standard)
/// ```
public enum DecodeWorker {
    /// The first argument that makes a process a worker; the second is its memory cap in bytes.
    public static let argument = "--darkroom-decode-worker"
    /// The shared-memory descriptor the pool hands a worker.
    static let sharedMemoryDescriptor: Int32 = 3

    /// This process's executable (`/proc/self/exe`), to start as workers; `nil` if it cannot be read.
    public static var currentExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Serves as a worker and exits when the process was started as one; returns at once otherwise.
    public static func runIfAsked(registry: @autoclosure () -> Registry, arguments: [String] = CommandLine.arguments) {
        guard arguments.count >= 2, arguments[1] == argument else { return }
        if arguments.count >= 3, let cap = Int(arguments[2]), cap > 0 {
            var limit = rlimit(rlim_cur: rlim_t(cap), rlim_max: rlim_t(cap))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit)
        }
        serve(registry: registry())
        exit(0)
    }

    // MARK: - Serving

    private static func serve(registry: Registry) {
        while let job = WorkerFraming.receiveMessage(WorkerJob.self, from: 0) {
            guard let bytes = WorkerFraming.receive(job.byteCount, from: 0) else { return }
            if let fault = job.fault { commit(fault) }
            let outcome = decode(bytes, job: job, registry: registry)
            guard let message = try? WorkerFraming.encode(outcome),
                message.withUnsafeBytes({ WorkerFraming.send($0, to: 1) })
            else { return }
        }
    }

    private static func decode(_ bytes: [UInt8], job: WorkerJob, registry: Registry) -> WorkerOutcome {
        let warnings = Mutex<[DecodeWarning]>([])
        let options = job.options(warnings: DecodeWarningHandler { warning in warnings.withLock { $0.append(warning) } })
        var outcome = WorkerOutcome()
        do {
            let image = try registry.decode(bytes, options: options)
            let later = image.animation?.laterFrames ?? []
            try share([image.pixels] + later.map(\.pixels), format: job.format)
            outcome.width = image.width
            outcome.height = image.height
            outcome.hasAlpha = image.hasAlpha
            outcome.shrunkFrom = image.shrunkFrom
            outcome.byteCount = image.pixels.count * (later.count + 1)
            if let animation = image.animation {
                outcome.laterFramesAlpha = later.map(\.hasAlpha)
                outcome.timings = animation.timings
                outcome.loopCount = animation.loopCount
            }
        } catch let error as DarkroomError {
            outcome.error = error
        } catch {
            outcome.otherError = String(describing: error)
        }
        outcome.warnings = warnings.withLock { $0 }
        return outcome
    }

    /// Copies `frames` (each frame's pixels) into the shared memory one after the other, sized to them.
    private static func share(_ frames: [[UInt8]], format: ImageFormat) throws {
        let fd = sharedMemoryDescriptor
        let total = frames.reduce(0) { $0 + $1.count }
        guard ftruncate(fd, off_t(total)) == 0,
            let mapping = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0), mapping != MAP_FAILED
        else {
            throw DarkroomError.decodeFailed(format, detail: "the decoder worker cannot share \(total) bytes: \(String(cString: strerror(errno)))")
        }
        var offset = 0
        for pixels in frames {
            pixels.withUnsafeBytes { (mapping + offset).copyMemory(from: $0.baseAddress!, byteCount: pixels.count) }
            offset += pixels.count
        }
        munmap(mapping, total)
    }

    /// What the pool's tests ask for instead of a decode.
    private static func commit(_ fault: DecodeWorkerPool.Fault) {
        switch fault {
        case .abort:
            abort()
        case .hang:
            while true { sleep(60) }
        case .allocate(let bytes):
            // Touch every page, as a decoder filling a buffer would.
            guard let memory = malloc(bytes) else { abort() }
            memset(memory, 1, bytes)
            free(memory)
        }
    }
}
