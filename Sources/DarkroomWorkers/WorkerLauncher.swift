import Glibc
import Synchronization

// MARK: - WorkerLauncher

/// Starts one worker process: `posix_spawn` of the configured executable with a socket pair
/// end as its standard input and output, an unlinked shared-memory file as descriptor 3 and
/// standard error on `/dev/null` (decoder libraries print there). The worker inherits the
/// environment but for Swift's crash backtracer, which is turned off: its report would go to
/// `/dev/null`, and symbolicating a crashed worker delays the failed request's answer and the
/// worker's replacement by seconds.
enum WorkerLauncher {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let sequence = Atomic(0)

    static func start(_ configuration: DecodeWorkerPool.Configuration) throws -> DecodeWorkerPool.Worker {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        let name = "/darkroom-worker-\(getpid())-\(sequence.add(1, ordering: .relaxed).newValue)"
        let sharedMemory = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard sharedMemory >= 0 else {
            let reason = String(cString: strerror(errno))
            close(ends[0])
            close(ends[1])
            throw Failure(description: "shm_open: \(reason)")
        }
        shm_unlink(name)
        defer { close(ends[1]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, sharedMemory, DecodeWorker.sharedMemoryDescriptor)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let arguments = [configuration.executable, DecodeWorker.argument, String(configuration.memoryLimit)]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment: [UnsafeMutablePointer<CChar>?] = workerEnvironment().map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, configuration.executable, &actions, nil, &argv, &environment)
        guard status == 0 else {
            close(ends[0])
            close(sharedMemory)
            throw Failure(description: "\(configuration.executable): \(String(cString: strerror(status)))")
        }
        return DecodeWorkerPool.Worker(pid: pid, socket: ends[0], sharedMemory: sharedMemory)
    }

    /// This process's environment with `SWIFT_BACKTRACE=enable=no` in place of any setting of its own.
    static func workerEnvironment() -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("SWIFT_BACKTRACE=") { entries.append(text) }
            cursor += 1
        }
        return entries + ["SWIFT_BACKTRACE=enable=no"]
    }
}
