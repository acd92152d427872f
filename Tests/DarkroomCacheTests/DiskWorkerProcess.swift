import DarkroomTestSupport
import Foundation

// MARK: - Running the DiskCacheWorker child process

/// Starts the `DiskCacheWorker` executable built beside the test bundle.
struct DiskWorkerProcess: Sendable {
    /// `.build/<triple>/debug/DiskCacheWorker`, next to the test bundle.
    static let executable = BuiltExecutable.url(named: "DiskCacheWorker")

    let process: Process
    private let output: Pipe

    /// Starts the worker with `arguments`; its standard output is read with ``waitForLine(_:)``
    /// or ``finish()``.
    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = DiskWorkerProcess.executable
        process.arguments = arguments
        output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits (on a thread of its own, not the cooperative pool) until the worker prints `line`
    /// (returns true) or closes its output (false).
    func waitForLine(_ line: String) async throws -> Bool {
        try await onOwnThread { blockUntilLine(line) }
    }

    private func blockUntilLine(_ line: String) -> Bool {
        var text = ""
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            text += String(decoding: chunk, as: UTF8.self)
            if text.split(separator: "\n").contains(Substring(line)) { return true }
        }
    }

    /// `kill -9`, then reaps the process (waiting on a thread of its own).
    func killHard() async throws {
        // Only while it runs: once reaped, its pid may already be another test's process
        // (pid_max is 32768 on the CI machines, and the suite starts thousands).
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try await onOwnThread { process.waitUntilExit() }
    }

    /// Reads the rest of the output and waits for the exit (on a thread of its own):
    /// (status, output).
    func finish() async throws -> (status: Int32, output: String) {
        try await onOwnThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
}
