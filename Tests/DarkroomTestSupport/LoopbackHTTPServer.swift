import Foundation

// MARK: - LoopbackHTTPServer

/// A real HTTP server on 127.0.0.1 for source and pipeline tests: `Tests/HTTPTestServer/
/// darkroom_test_server.py` (see its docstring for the routes), started as a child process
/// serving `Tests/Fixtures`, stopped when this value is deinitialised (or when the test
/// process dies: the server exits when its stdin closes).
///
/// Every request the server receives is appended to a JSON-lines log, which the methods here
/// read: how many times a path was hit, with which headers, and whether the client aborted.
///
/// ```swift
/// let server = try LoopbackHTTPServer.start()
/// let url = server.url("/image/gradient.jpg")
/// // … fetch it …
/// #expect(server.hits("/image/gradient.jpg") == 1)
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// `"https"` for a server started with `tls: true`, else `"http"`.
    public let scheme: String
    /// The JSON-lines request log.
    public let logURL: URL
    private let process: Process
    private let stdin: Pipe
    private let folder: TemporaryDirectory

    /// The server script in this checkout.
    public static let script: URL = Fixtures.directory.deletingLastPathComponent()
        .appendingPathComponent("HTTPTestServer/darkroom_test_server.py")

    /// The HTTP/2 server script (see ``launchHTTP2(root:)``).
    public static let http2Script: URL = script.deletingLastPathComponent().appendingPathComponent("darkroom_h2_server.py")

    /// The self-signed certificate (CA:TRUE, for localhost and 127.0.0.1, valid 2020–2120) a
    /// `tls: true` server presents: trust it with `HTTPSourceSettings.caFile`.
    public static let tlsCertificate: URL = script.deletingLastPathComponent().appendingPathComponent("tls/loopback-cert.pem")
    static let tlsKey: URL = script.deletingLastPathComponent().appendingPathComponent("tls/loopback-key.pem")

    /// Starts a server as ``start(root:tls:)`` does, on a thread of its own: starting Python
    /// blocks for a while, and blocking one of the cooperative pool's few threads would stall
    /// every other running test.
    ///
    /// ```swift
    /// let server = try await LoopbackHTTPServer.launch()
    /// ```
    public static func launch(root: URL = Fixtures.directory, tls: Bool = false) async throws -> LoopbackHTTPServer {
        try await onOwnThread { try start(root: root, tls: tls) }
    }

    /// Starts `Tests/HTTPTestServer/darkroom_h2_server.py` instead: HTTP/2 only, over TLS with
    /// ``tlsCertificate`` (ALPN "h2"), serving `/image/NAME`, `/status/CODE` and `/big`, with
    /// `?hold=NAME`. Its log events also name the ``Event/connection`` and ``Event/stream``.
    /// It needs Python's `h2` package (Debian: python3-h2), looked for in `/usr/bin/python3`
    /// (where Debian installs it) before the `python3` on `PATH`.
    ///
    /// ```swift
    /// let server = try await LoopbackHTTPServer.launchHTTP2()
    /// ```
    public static func launchHTTP2(root: URL = Fixtures.directory) async throws -> LoopbackHTTPServer {
        try await onOwnThread { try start(root: root, tls: true, http2: true) }
    }

    private init(port: Int, scheme: String, logURL: URL, process: Process, stdin: Pipe, folder: TemporaryDirectory) {
        self.port = port
        self.scheme = scheme
        self.logURL = logURL
        self.process = process
        self.stdin = stdin
        self.folder = folder
    }

    /// Starts a server serving `root` (default: the committed fixtures), over TLS with
    /// ``tlsCertificate`` when `tls` is true.
    /// - Throws: when `python3` cannot be started or the server does not report its port.
    public static func start(root: URL = Fixtures.directory, tls: Bool = false) throws -> LoopbackHTTPServer {
        try start(root: root, tls: tls, http2: false)
    }

    private static func start(root: URL, tls: Bool, http2: Bool) throws -> LoopbackHTTPServer {
        let folder = try TemporaryDirectory(prefix: "darkroom-http")
        let logURL = folder.url.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let process = Process()
        let gates = gatesFolder(in: folder)
        try FileManager.default.createDirectory(at: gates, withIntermediateDirectories: true)
        let serverArguments = ["--root", root.path, "--log", logURL.path, "--gates", gates.path]
            + (tls ? ["--tls-cert", tlsCertificate.path, "--tls-key", tlsKey.path] : [])
        if http2, FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [http2Script.path] + serverArguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", (http2 ? http2Script : script).path] + serverArguments
        }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The first line is "PORT <n>".
        var line = [UInt8]()
        let handle = output.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerError(message: "\((http2 ? http2Script : script).lastPathComponent) did not start (said '\(text)')")
        }
        return LoopbackHTTPServer(
            port: port, scheme: tls ? "https" : "http", logURL: logURL, process: process, stdin: input, folder: folder)
    }

    deinit {
        process.terminate()
        // Not waitUntilExit(): when many children end at once, Foundation on Linux can miss one
        // exit (the server stays an unreaped zombie) and that wait never returns, hanging the
        // whole test run. Wait a bounded time instead; the zombie goes with the test process.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
    }

    /// `http://127.0.0.1:PORT` followed by `path` (which starts with `/`).
    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// The same server named by `localhost` (another host name for redirect tests).
    public func localhostURL(_ path: String) -> String { "\(scheme)://localhost:\(port)\(path)" }

    // MARK: - Holds

    /// Where the server looks for the files `?hold=NAME` waits for.
    private static func gatesFolder(in folder: TemporaryDirectory) -> URL {
        folder.url.appendingPathComponent("gates")
    }

    /// Lets every request with `?hold=NAME` answer: those waiting now and any that come later.
    /// A held request keeps its transfer in flight for as long as a test needs, without racing
    /// a fixed delay on a loaded machine.
    ///
    /// ```swift
    /// let path = "/image/gradient.jpg?hold=slot"
    /// // … start a fetch of path, queue others behind it …
    /// server.release("slot")
    /// ```
    public func release(_ name: String) {
        let gate = Self.gatesFolder(in: folder).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: gate.path, contents: Data())
    }

    // MARK: - Log

    /// One line of the request log.
    public struct Event: Sendable {
        /// `"request"` when a request arrives, `"finished"` when its answer ends.
        public var event: String
        public var id: Int
        /// Path and query, as requested.
        public var path: String
        /// Request headers, names lowercased (on `request` events).
        public var headers: [String: String]
        /// The status sent (on `finished` events; `nil` if none was sent).
        public var status: Int?
        /// `"completed"` or `"aborted"` (on `finished` events).
        public var outcome: String?
        /// The HTTP/2 server's connection number and stream id (`nil` from the HTTP/1 server).
        public var connection: Int?
        public var stream: Int?
    }

    /// Every event so far, in order.
    public func events() -> [Event] {
        guard let data = FileManager.default.contents(atPath: logURL.path) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
            return Event(
                event: object["event"] as? String ?? "",
                id: object["id"] as? Int ?? 0,
                path: object["path"] as? String ?? "",
                headers: object["headers"] as? [String: String] ?? [:],
                status: object["status"] as? Int,
                outcome: object["outcome"] as? String,
                connection: object["connection"] as? Int,
                stream: object["stream"] as? Int)
        }
    }

    /// The requests that arrived for exactly `path` (path and query).
    public func requests(_ path: String) -> [Event] {
        events().filter { $0.event == "request" && $0.path == path }
    }

    /// How many requests arrived for exactly `path` (path and query).
    public func hits(_ path: String) -> Int { requests(path).count }

    /// The `finished` events for exactly `path`.
    public func finished(_ path: String) -> [Event] {
        events().filter { $0.event == "finished" && $0.path == path }
    }

    /// Waits (polling the log) until `condition` holds or `timeout` seconds pass; returns
    /// whether it held.
    public func wait(timeout: Double = 5, until condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
