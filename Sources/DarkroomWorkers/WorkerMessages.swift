import Darkroom
import DarkroomCore
import FoundationEssentials
import Glibc

// MARK: - What goes between the pool and a worker

/// One decode asked of a worker: the decode options that travel (a warning handler cannot; the
/// worker sends the warnings back instead), followed on the socket by `byteCount` bytes of source.
struct WorkerJob: Codable, Sendable {
    var format: ImageFormat
    var byteCount: Int
    var sizeHint: PixelSize?
    var appliesOrientation: Bool
    var maxInputBytes: Int
    var maxPixels: Int
    var maxFrames: Int
    var animated: Bool
    var keepsStoredColors: Bool
    var failOn: FailOn
    var page: Int
    /// For tests of the pool only (``DecodeWorkerPool/Fault``): what the worker does instead of decoding.
    var fault: DecodeWorkerPool.Fault?

    init(format: ImageFormat, byteCount: Int, options: DecodeOptions, fault: DecodeWorkerPool.Fault? = nil) {
        self.format = format
        self.byteCount = byteCount
        sizeHint = options.sizeHint
        appliesOrientation = options.appliesOrientation
        maxInputBytes = options.limits.maxInputBytes
        maxPixels = options.limits.maxPixels
        maxFrames = options.limits.maxFrames
        animated = options.animated
        keepsStoredColors = options.colorProfiles == .ignore
        failOn = options.failOn
        page = options.page
        self.fault = fault
    }

    /// The options the worker decodes with, warnings going to `warnings`.
    func options(warnings: DecodeWarningHandler) -> DecodeOptions {
        var options = DecodeOptions(limits: DecodeLimits(maxInputBytes: maxInputBytes, maxPixels: maxPixels), failOn: failOn)
        options.sizeHint = sizeHint
        options.appliesOrientation = appliesOrientation
        options.colorProfiles = keepsStoredColors ? .ignore : .convertToSRGB
        options.page = page
        options.limits.maxFrames = maxFrames
        options.animated = animated
        options.warnings = warnings
        return options
    }
}

/// A worker's answer: the image's shape (its pixels are in the shared memory, `byteCount`
/// bytes, an animation's frames one after the other) or the error, and the warnings the
/// decode reported either way.
struct WorkerOutcome: Codable, Sendable {
    var width = 0
    var height = 0
    var hasAlpha = false
    var shrunkFrom: PixelSize?
    var byteCount = 0
    /// An animation's later frames' alpha flags (one per frame after the first), its timings
    /// and loop count; `nil` for a still image.
    var laterFramesAlpha: [Bool]?
    var timings: [FrameTiming]?
    var loopCount: Int?
    var warnings: [DecodeWarning] = []
    var error: DarkroomError?
    /// An error that is not a `DarkroomError`, as text.
    var otherError: String?
}

// MARK: - Framing

/// Messages are a 4-byte little-endian length and that many bytes of JSON.
enum WorkerFraming {
    static let maximumMessage = 1 << 20

    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let json = try JSONEncoder().encode(value)
        var bytes = withUnsafeBytes(of: UInt32(json.count).littleEndian) { Array($0) }
        bytes.append(contentsOf: json)
        return bytes
    }

    /// Writes all of `bytes` to `fd` (a socket: no SIGPIPE if the other end is gone).
    /// - Returns: `false` when the other end is gone.
    static func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Reads exactly `count` bytes from `fd`; `nil` at end of file or on an error.
    static func receive(_ count: Int, from fd: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while offset < count {
                let got = Glibc.read(fd, buffer.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return false }
                offset += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Reads one message from `fd`; `nil` at end of file, on an error or a malformed message.
    static func receiveMessage<T: Decodable>(_ type: T.Type, from fd: Int32) -> T? {
        guard let prefix = receive(4, from: fd) else { return nil }
        let length = Int(UInt32(prefix[0]) | UInt32(prefix[1]) << 8 | UInt32(prefix[2]) << 16 | UInt32(prefix[3]) << 24)
        guard length <= maximumMessage, let json = receive(length, from: fd) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(json))
    }
}
