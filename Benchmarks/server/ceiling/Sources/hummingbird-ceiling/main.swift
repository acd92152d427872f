import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

// MARK: - A bare Hummingbird server

/// Answers every GET with one fixed 8 KiB body (`image/jpeg`, as a thumbnail would be): the most
/// requests per second Hummingbird serves on this host, with no work of darkroom-server's.
///
///     hummingbird-ceiling PORT
let arguments = CommandLine.arguments
guard arguments.count == 2, let port = Int(arguments[1]), (1...65535).contains(port) else {
    print("usage: hummingbird-ceiling PORT")
    exit(2)
}
let body = ByteBuffer(repeating: 0x5A, count: 8 * 1024)
let router = Router()
router.get("**") { _, _ in
    Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
