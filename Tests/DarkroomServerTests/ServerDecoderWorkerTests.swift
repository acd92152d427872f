import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

// MARK: - Decoder workers behind the server

@Suite("darkroom-server decodes AVIF, HEIF and TIFF in worker processes: a killed or starved worker fails one request with 422, and the next is served")
struct ServerDecoderWorkerTests {
    /// An 8000×8000 black TIFF (256 MB decoded, a few hundred KB deflated): slow enough to decode
    /// that its worker can be killed in the middle.
    static func largeTIFF() throws -> [UInt8] {
        let side = 8_000
        let black = try Image(width: side, height: side, pixels: [UInt8](repeating: 0, count: side * side * 4), hasAlpha: false)
        return try Registry.standard.encode(black, options: EncodeOptions(format: .tiff))
    }

    /// The processes whose parent is `pid` (from `/proc/*/stat`).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // "PID (name) STATE PPID …": the name may hold spaces, so read after its ')'.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid ? child : nil
        }
    }

    static func root() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory(prefix: "darkroom-decoder-workers")
        try Data(try largeTIFF()).write(to: URL(fileURLWithPath: root.path("large.tiff")))
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient.avif"), toPath: root.path("gradient.avif"))
        try FileManager.default.copyItem(atPath: Fixtures.path("gradient.tiff"), toPath: root.path("gradient.tiff"))
        return root
    }

    /// SIGKILL is what the pool itself sends on a timeout (and the kernel on out-of-memory);
    /// SIGABRT is how a C library's `abort()` ends a process, SIGSEGV a wild read or write.
    @Test(
        "a worker killed mid-decode (SIGKILL, SIGABRT, SIGSEGV) answers that request 422, and the next request is served by a new worker",
        arguments: [SIGKILL, SIGABRT, SIGSEGV])
    func killedWorker(signal: Int32) async throws {
        let root = try Self.root()
        let server = try await ServerProcess.start(["--root", root.url.path, "--no-cache", "--no-remote", "--metrics"])
        #expect(server.banner.contains("AVIF, HEIF, TIFF decoded in worker processes"), "\(server.banner)")
        // The worker is found by polling /proc, so on a busy machine it may have answered before
        // it is found and killed: then the request got its 200 (the dead idle worker is replaced
        // unnoticed) and the attempt is repeated with the next worker.
        var killedMidRequest: RawHTTPClient.Response?
        var spent: Set<Int32> = []
        for _ in 0..<8 where killedMidRequest == nil {
            let request = Task { try await RawHTTPClient.send("GET", "/original/large.tiff", port: server.port) }
            var worker: Int32?
            for _ in 0..<5_000 where worker == nil {
                worker = Self.children(of: server.processIdentifier).first { !spent.contains($0) }
                if worker == nil { try await Task.sleep(for: .milliseconds(1)) }
            }
            let found = try #require(worker)
            spent.insert(found)
            kill(found, signal)
            let answer = try await request.value
            if answer.status != 200 { killedMidRequest = answer }
        }
        let answer = try #require(killedMidRequest)
        #expect(answer.status == 422, "\(answer.text)")
        #expect(answer.text.contains("the decoder worker died of signal \(signal)"), "\(answer.text)")

        let next = try await RawHTTPClient.send("GET", "/original/gradient.avif", port: server.port)
        #expect(next.status == 200, "\(next.text)")
        #expect(try ImageProbe.probe(next.body).format == .avif)
        let metrics = try await RawHTTPClient.send("GET", "/metrics", port: server.port)
        #expect(metrics.text.contains(#"darkroom_decode_worker_failures_total{reason="crash"} 1"#), "\(metrics.text.suffix(2000))")
        #expect(try await server.stop() == 0)
    }

    @Test("a decode past the worker's memory cap answers 422 naming the failure, and the server goes on")
    func memoryCap() async throws {
        let root = try Self.root()
        let server = try await ServerProcess.start(["--root", root.url.path, "--no-cache", "--no-remote", "--decoder-memory", "64MB"])
        let starved = try await RawHTTPClient.send("GET", "/original/large.tiff", port: server.port)
        #expect(starved.status == 422, "\(starved.text)")
        #expect(starved.text.contains("the decoder worker died of signal"), "\(starved.text)")
        #expect(starved.text.contains("needed more than its 64 MB memory cap"), "\(starved.text)")
        let next = try await RawHTTPClient.send("GET", "/thumbnail/gradient.tiff", port: server.port)
        #expect(next.status == 200, "\(next.text)")
        #expect(try await server.stop() == 0)
    }

    @Test("--isolate-decoders none decodes in process; a wrong format name is refused before listening")
    func options() async throws {
        let root = try Self.root()
        let server = try await ServerProcess.start(["--root", root.url.path, "--no-cache", "--no-remote", "--isolate-decoders", "none"])
        #expect(!server.banner.contains("worker processes"))
        let answer = try await RawHTTPClient.send("GET", "/thumbnail/gradient.avif", port: server.port)
        #expect(answer.status == 200)
        #expect(Self.children(of: server.processIdentifier).isEmpty)
        #expect(try await server.stop() == 0)
        let refused = try await ServerProcessOutcome.run(["--root", root.url.path, "--isolate-decoders", "avif,jxl"], environment: [:])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("'jxl' is not a format"), "\(refused.stderr)")
    }
}
