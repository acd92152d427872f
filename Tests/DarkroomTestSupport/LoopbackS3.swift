import Foundation
import Glibc

// MARK: - LoopbackS3

/// A real S3-compatible server on 127.0.0.1 with request signatures checked: moto's server
/// mode (PyPI `moto[s3,iam]`, installed by `.ci/run`), started with three unchecked calls,
/// which `Tests/Fixtures/S3/moto_setup.py` spends on an IAM user and its access key; the
/// bucket and objects are then created with signed requests. Stopped when released.
///
/// ```swift
/// let s3 = try await LoopbackS3.launch(bucket: "photos", objects: ["a.jpg": Fixtures.path("gradient.jpg")])
/// // s3.endpoint, s3.accessKey, s3.secretKey
/// ```
public final class LoopbackS3: @unchecked Sendable {
    public let port: Int
    public let bucket: String
    public let accessKey: String
    public let secretKey: String
    private let process: Process
    private let input = Pipe()

    /// `http://127.0.0.1:PORT`.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    public struct StartError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The setup script in this checkout.
    public static let setupScript: URL = Fixtures.directory.appendingPathComponent("S3/moto_setup.py")

    /// Starts the server and fills `bucket` with `objects` (key → local file) and
    /// `randomObjects` (key → byte count), on a thread of its own (Python starts slowly).
    public static func launch(
        bucket: String, objects: [String: String] = [:], randomObjects: [String: Int] = [:]
    ) async throws -> LoopbackS3 {
        try await onOwnThread { try LoopbackS3(bucket: bucket, objects: objects, randomObjects: randomObjects) }
    }

    private init(bucket: String, objects: [String: String], randomObjects: [String: Int]) throws {
        let python = try Self.python()
        // Only moto's shell may hold the read end; no other child may inherit the write end
        // (a moto started later would otherwise keep this one's input open).
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        port = try LoopbackMemcached.freePort()
        self.bucket = bucket
        process = Process()
        // Through a shell that stops moto when its standard input closes: when this value is
        // released, and when the test process dies without releasing it (a global fixture).
        // SIGKILL: children of the test process inherit its blocked SIGTERM.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "\"$0\" -m moto.server -H 127.0.0.1 -p \"$1\" & server=$!; cat > /dev/null; kill -9 $server; wait $server",
            python, String(port),
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["INITIAL_NO_AUTH_ACTION_COUNT": "3"]) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            try Self.waitUntilAnswering(port: port, process: process)
            var arguments = [Self.setupScript.path, "--endpoint", "http://127.0.0.1:\(port)", "--bucket", bucket]
            for (key, path) in objects.sorted(by: { $0.key < $1.key }) { arguments += ["--put", "\(key)=\(path)"] }
            for (key, count) in randomObjects.sorted(by: { $0.key < $1.key }) { arguments += ["--put-random", "\(key)=\(count)"] }
            let output = try Self.run(python, arguments)
            guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String],
                let accessKey = json["accessKeyId"], let secretKey = json["secretAccessKey"]
            else { throw StartError(message: "moto_setup.py printed no keys: \(output)") }
            self.accessKey = accessKey
            self.secretKey = secretKey
        } catch {
            try? input.fileHandleForWriting.close()
            throw error
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        guard process.isRunning else { return }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    // MARK: - Starting

    /// The first Python that has moto (the one on `PATH`, then Debian's).
    static func python() throws -> String {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
            + ["/usr/bin/python3"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if (try? run(candidate, ["-c", "import moto.server"])) != nil { return candidate }
        }
        throw StartError(message: "no python3 with moto: install it with pip install 'moto[s3,iam]' flask flask-cors (.ci/run does)")
    }

    /// Waits until the server accepts connections (Werkzeug listens once it is ready to serve).
    private static func waitUntilAnswering(port: Int, process: Process) throws {
        let deadline = Date().addingTimeInterval(60)
        while !LoopbackMemcached.accepts(port: port) {
            guard process.isRunning else { throw StartError(message: "moto exited (\(process.terminationStatus)) while starting") }
            guard Date() < deadline else { throw StartError(message: "moto did not listen on port \(port) within 60 s") }
            usleep(50_000)
        }
    }

    /// Runs `executable` and returns its standard output; throws when it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        let out = Pipe(), err = Pipe()
        child.standardOutput = out
        child.standardError = err
        try child.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw StartError(message: "\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
