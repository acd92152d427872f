import DarkroomTestSupport
import Foundation
import Glibc
import Synchronization

// MARK: - ServerProcess

/// The real `darkroom-server` executable, built beside the tests, started on a free loopback
/// port; stopped (SIGTERM) by ``stop()`` or when the value is deinitialised.
final class ServerProcess: Sendable {
    let port: Int
    /// The line the server printed once listening.
    let banner: String
    private let process: Process
    /// The tail of what the server wrote after its banner (both pipes are drained by threads
    /// of their own: a pipe nobody reads fills at 64 KiB, and the server then blocks in its
    /// next log line — as happened with a warning logged four times a second).
    private let output: OutputTail

    static let executable = BuiltExecutable.url(named: "darkroom-server")

    /// A disk-cache folder for this test process, so the tests never touch the user's cache.
    static let cacheDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("darkroom-server-tests-\(ProcessInfo.processInfo.processIdentifier)").path

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server with `arguments` (after `--host 127.0.0.1 --port 0`) on a thread of
    /// its own, and waits for its banner.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        try await onOwnThread { try startBlocking(arguments, environment: environment) }
    }

    private static func startBlocking(_ arguments: [String], environment: [String: String]) throws -> ServerProcess {
        let process = makeProcess(arguments, environment: environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line: [UInt8] = []
        let reader = out.fileHandleForReading
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty {
                process.waitUntilExit()
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw Failure(description: "darkroom-server exited (\(process.terminationStatus)) before listening: \(message)")
            }
            if byte[byte.startIndex] == UInt8(ascii: "\n") { break }
            line.append(byte[byte.startIndex])
        }
        let banner = String(decoding: line, as: UTF8.self)
        guard let range = banner.range(of: "http://127.0.0.1:"),
            let port = Int(banner[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw Failure(description: "no address in '\(banner)'")
        }
        let output = OutputTail()
        output.drain(out.fileHandleForReading)
        output.drain(err.fileHandleForReading)
        return ServerProcess(port: port, banner: banner, process: process, output: output)
    }

    /// A `darkroom-server` process (not started) with `--host 127.0.0.1 --port 0` and then
    /// `arguments` (which may override them), this test process's disk-cache folder, and `environment` on top.
    static func makeProcess(_ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--host", "127.0.0.1", "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment
            .merging(["DARKROOM_CACHE_DIR": cacheDirectory]) { $1 }
            .merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        return process
    }

    private init(port: Int, banner: String, process: Process, output: OutputTail) {
        self.port = port
        self.banner = banner
        self.process = process
        self.output = output
    }

    /// The server's process ID (for reading `/proc/PID/status`).
    var processIdentifier: Int32 { process.processIdentifier }

    /// The last 64 KiB the server wrote to its standard output and error since its banner.
    var recentOutput: String { output.text }

    /// Sends SIGTERM and waits for the exit; returns the exit status.
    func stop() async throws -> Int32 {
        let process = self.process
        return try await onOwnThread {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Ends it at once (SIGKILL), as a crash would, and waits for the exit.
    func kill() async throws {
        let process = self.process
        try await onOwnThread {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

// MARK: - OutputTail

/// Reads pipes to their end on threads of their own, keeping the last 64 KiB.
final class OutputTail: Sendable {
    private static let limit = 64 * 1024
    private let bytes = Mutex<[UInt8]>([])

    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }

    func drain(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                bytes.withLock { kept in
                    kept.append(contentsOf: chunk)
                    if kept.count > Self.limit { kept.removeFirst(kept.count - Self.limit) }
                }
            }
        }.start()
    }
}
