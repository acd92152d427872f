import Darkroom
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Memory bounded by configuration

@Suite("darkroom-server keeps the pixels in flight within --memory and answers work that cannot wait 503 with Retry-After")
struct ServerMemoryBudgetTests {
    /// The most the server may hold beyond its budget: its own start-up size (about 40 MB for
    /// the debug build), thread stacks and allocator arenas, and the encoded answers on their
    /// way out.
    static let baseline = 256 << 20

    /// A 10000×10000 JPEG (100 megapixels, 400 MB decoded), all black so it is small on disk.
    static func hundredMegapixelJPEG() throws -> [UInt8] {
        let side = 10_000
        let black = try Image(width: side, height: side, pixels: [UInt8](repeating: 0, count: side * side * 4), hasAlpha: false)
        return try Registry.standard.encode(black, options: EncodeOptions(format: .jpeg))
    }

    /// A field of `/proc/PID/status` in bytes (`VmHWM`: peak resident memory; `VmRSS`: now).
    static func status(_ field: String, of pid: Int32) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw ServerProcess.Failure(description: "no \(field) in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    @Test("32 concurrent original requests for 100-megapixel images: peak RSS under --memory plus the baseline, every answer 200 or 503")
    func thirtyTwoHundredMegapixelOriginals() async throws {
        let root = try TemporaryDirectory(prefix: "darkroom-memory-budget")
        let jpeg = try Self.hundredMegapixelJPEG()
        let names = (0..<32).map { "large-\($0).jpg" }
        for name in names { try Data(jpeg).write(to: URL(fileURLWithPath: root.path(name))) }
        let budget = 1 << 30
        let server = try await ServerProcess.start([
            "--root", root.url.path, "--no-cache", "--no-remote", "--jobs", "2", "--memory", "1GB", "--queue-timeout", "4s",
        ])
        let startRSS = try Self.status("VmRSS", of: server.processIdentifier)

        let responses = try await withThrowingTaskGroup(of: RawHTTPClient.Response.self) { group in
            for name in names { group.addTask { try await RawHTTPClient.send("GET", "/original/" + name, port: server.port) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let peak = try Self.status("VmHWM", of: server.processIdentifier)

        #expect(responses.count == 32)
        #expect(responses.allSatisfy { [200, 503].contains($0.status) }, "\(responses.map { "\($0.status) \($0.text.prefix(80))" })")
        let rendered = responses.filter { $0.status == 200 }
        #expect(!rendered.isEmpty)
        for response in rendered {
            let header = try ImageProbe.probe(response.body)
            #expect(header.width == 10_000 && header.height == 10_000)
        }
        for busy in responses where busy.status == 503 {
            #expect(busy.header("retry-after") == "4")
            #expect(busy.text.hasPrefix("busy: waited 4 s for 1024 MB of work in flight"), "\(busy.text)")
        }
        #expect(peak <= budget + Self.baseline, "peak RSS \(peak >> 20) MB, started at \(startRSS >> 20) MB")

        // The server is not worse for it: the next request renders.
        let next = try await RawHTTPClient.send("GET", "/original/" + names[0], port: server.port)
        #expect(next.status == 200)
        #expect(try await server.stop() == 0)
    }

    @Test("[limits] in filters.d sets max-pixels, and --max-pixels wins over it")
    func maxPixelsFromConfigAndFlag() async throws {
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-limits-config")
        try "[limits]\nmax-pixels = 100\n".write(toFile: config.path("10-limits.toml"), atomically: true, encoding: .utf8)
        let limited = try await ServerProcess.start(["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache"])
        let refused = try await RawHTTPClient.send("GET", "/original/gradient.jpg", port: limited.port)
        #expect(refused.status == 422)
        #expect(refused.text.contains("more than the limit of 100 pixels"), "\(refused.text)")
        #expect(try await limited.stop() == 0)

        let widened = try await ServerProcess.start(
            ["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache"], environment: ["DARKROOM_MAX_PIXELS": "1000000"])
        let served = try await RawHTTPClient.send("GET", "/original/gradient.jpg", port: widened.port)
        #expect(served.status == 200, "\(served.text)")
        #expect(try await widened.stop() == 0)
    }

    @Test("[limits] max-pixels holds every filter's output too: an enlargement past it is 422, before decoding or once trim has run")
    func maxPixelsBoundsFilterOutputs() async throws {
        let fixture = try ServerFixture()
        let config = try TemporaryDirectory(prefix: "darkroom-limits-outputs")
        try """
            [limits]
            max-pixels = 262144

            [variants.huge]
            filters = [ { filter = "aspect-fit", width = 9166 } ]
            format = "png"

            [variants.trimmed-huge]
            filters = [ { filter = "trim" }, { filter = "aspect-fit", width = 9166 } ]
            format = "png"

            [variants.thumb]
            filters = [ { filter = "aspect-fit", width = 32, height = 32 } ]
            format = "png"
            """.write(toFile: config.path("10-limits.toml"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess.start(["--config", config.url.path, "--root", fixture.root.url.path, "--no-cache"])
        for variant in ["huge", "trimmed-huge"] {
            let refused = try await RawHTTPClient.send("GET", "/\(variant)/gradient.jpg", port: server.port)
            #expect(refused.status == 422, "\(variant): \(refused.status) \(refused.text)")
            #expect(refused.text.contains("invalid aspect-fit output '9166×"), "\(variant): \(refused.text)")
            #expect(refused.text.contains("expected at most 262144 pixels (max-pixels)"), "\(variant): \(refused.text)")
        }
        let thumb = try await RawHTTPClient.send("GET", "/thumb/gradient.jpg", port: server.port)
        #expect(thumb.status == 200, "\(thumb.text)")
        #expect(try ImageProbe.probe(thumb.body).width == 32)
        #expect(try await server.stop() == 0)
    }
}
