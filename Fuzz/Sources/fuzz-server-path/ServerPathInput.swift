import Darkroom
import DarkroomConfig
import DarkroomCore
import DarkroomServer
import DarkroomTools
import Foundation
import FuzzSupport

// MARK: - The server's request path, end to end in process

/// One input is a request: its first line the raw path (percent-encoded as sent), the rest the
/// `Accept` header. It goes through two in-process `ImageServer`s over the embedded default
/// configuration and a root holding one small image — one answering unsigned paths with ad-hoc
/// chains allowed, one taking signed paths only (asked once as sent, once signed properly, so
/// the fuzzer reaches the route behind the signature check). Routing, percent-decoding, the
/// signature check, chain parsing, the root's path rules, variant lookup and the render all
/// run; no remote source is registered, so nothing leaves the process.
enum ServerPathInput {
    struct Servers {
        let unsigned: ImageServer
        let signed: ImageServer
        let signer: URLSigner
    }

    /// Built once, on the first input.
    static let servers: Servers = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-fuzz-root-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        var pixels: [UInt8] = []
        for i in 0..<(24 * 16) {
            let red = UInt8(truncatingIfNeeded: i), green = UInt8(truncatingIfNeeded: i / 3)
            pixels += [red, green, 128, 255]
        }
        let image = try! Image(width: 24, height: 16, pixels: pixels, hasAlpha: false)
        for (name, format) in [("a.jpg", ImageFormat.jpeg), ("sub/b.png", .png)] {
            let bytes = try! Registry.standard.encode(image, options: EncodeOptions(format: format))
            _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
        }
        let configuration = ConfigLoader.load(sources: EmbeddedDefaultConfig.files, filters: Registry.standard.filters)
        var open = ImageServerSettings(root: root, allowsRemoteSources: false)
        open.allowsUnsignedChains = true
        let signer = try! URLSigner(hexKey: "00112233", hexSalt: "")
        var closed = ImageServerSettings(root: root, allowsRemoteSources: false, signer: signer)
        closed.maximumChainFilters = 4
        func server(_ settings: ImageServerSettings) -> ImageServer {
            try! ImageServer(registry: .standard, configuration: configuration, caches: .none, settings: settings) {
                $0.decoding.limits = DecodeLimits(maxInputBytes: 1 << 20, maxPixels: 1 << 18)
                $0.maximumActiveProcessing = 1
            }
        }
        return Servers(unsigned: server(open), signed: server(closed), signer: signer)
    }()

    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let path = lines.first.map(String.init) ?? ""
        let accept = lines.count > 1 ? String(lines[1]) : nil
        let servers = Self.servers
        var requests = [(servers.unsigned, path), (servers.signed, path)]
        if path.hasPrefix("/") { requests.append((servers.signed, "/" + servers.signer.signature(for: path) + path)) }
        for (server, path) in requests {
            let request = ImageServerRequest(method: "GET", path: path, accept: accept)
            let response = waiting { await server.respond(to: request) }
            precondition((200...599).contains(response.status), "status \(response.status) for \(path)")
        }
        return 0
    }

    /// The value of `body`, waited for on this (libFuzzer's) thread.
    private static func waiting<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// Carries a value from the task to the waiting thread (the semaphore orders the accesses).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
