import Foundation

// MARK: - ChildProcess

/// Runs a program to its end on a thread of its own (never blocking the cooperative pool),
/// with its standard output and error read together.
///
/// ```swift
/// let (status, printed) = try await ChildProcess.run("/usr/bin/systemd-analyze", ["verify", path])
/// ```
public enum ChildProcess {
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (status: Int32, output: String) {
        try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = environment }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, printed)
        }
    }
}
