import DarkroomTestSupport
import Foundation

// MARK: - Running the real darkroom binary

/// Runs the `darkroom` executable built beside the test bundle and captures its output.
struct CommandRunner {
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        /// Standard output as bytes (an image written to `-`).
        var stdoutBytes: [UInt8]
        var stderr: String
        var seconds: Double

        var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }
    }

    /// `.build/<triple>/debug/darkroom`, next to the test bundle.
    static let executable = builtExecutable(named: "darkroom")

    /// The executable `name` built beside the test bundle (`darkroom`, or a test tool).
    static func builtExecutable(named name: String) -> URL { BuiltExecutable.url(named: name) }

    /// A disk-cache folder for this test process, so the tests never touch the user's cache.
    static let cacheDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("darkroom-cli-tests-\(ProcessInfo.processInfo.processIdentifier)").path

    /// Runs darkroom with `arguments` on a thread of its own (waiting for a child process must
    /// not hold one of the cooperative pool's few threads) and returns what it did.
    /// `executable` runs another tool built beside the tests (see ``builtExecutable(named:)``).
    /// `standardInput` is a file fed to its standard input (else `/dev/null`).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], executable: URL = executable,
        standardInput: String? = nil
    ) async throws -> Outcome {
        try await onOwnThread {
            try runBlocking(arguments, environment: environment, executable: executable, standardInput: standardInput)
        }
    }

    private static func runBlocking(
        _ arguments: [String], environment: [String: String], executable: URL, standardInput: String?
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .merging(["DARKROOM_CACHE_DIR": cacheDirectory]) { $1 }
            .merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let standardInput {
            guard let input = FileHandle(forReadingAtPath: standardInput) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: standardInput])
            }
            process.standardInput = input
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let start = Date()
        try process.run()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stdoutBytes: [UInt8](stdout),
            stderr: String(decoding: stderr, as: UTF8.self),
            seconds: Date().timeIntervalSince(start))
    }
}
