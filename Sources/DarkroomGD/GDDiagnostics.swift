import CGD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - GDDiagnostics

/// Keeps libgd (and libtiff, which libgd reads TIFF through) from printing to stderr,
/// and hands what they said to the code that made the call.
///
/// Both libraries have a single, process-wide message handler. Darkroom installs its own
/// once, on first use; it formats each message with `vsnprintf` and appends it to the
/// *calling thread's* current capture, so concurrent decodes never see each other's
/// messages. Messages emitted outside ``capturing(_:)`` are dropped.
///
/// ```swift
/// let (image, messages) = GDDiagnostics.capturing { dr_gdImageCreateFromPngPtr(size, data) }
/// if image == nil { throw DarkroomError.decodeFailed(.png, detail: GDDiagnostics.detail(messages, fallback: "…")) }
/// ```
enum GDDiagnostics {
    /// At most this many messages are kept per call (libtiff can warn once per strip).
    static let maximumMessages = 16

    /// libgd's `GD_WARNING` (syslog's `LOG_WARNING`). Notices and debug messages — which
    /// libgd also sends on success, e.g. AVIF's "color profile is not sRGB" — are dropped.
    private static let warningPriority: Int32 = 4

    /// Runs `body` — one call into libgd — and returns its result with every message
    /// libgd or libtiff emitted on this thread meanwhile: errors first, then warnings, each
    /// in order (libtiff often warns about a file before the error that ends the read).
    static func capturing<T>(_ body: () throws -> T) rethrows -> (result: T, messages: [String]) {
        _ = handlersInstalled
        let log = MessageLog()
        let previous = pthread_getspecific(captureKey)
        pthread_setspecific(captureKey, Unmanaged.passUnretained(log).toOpaque())
        defer { pthread_setspecific(captureKey, previous) }
        let result = try withExtendedLifetime(log) { try body() }
        return (result, log.errors + log.warnings)
    }

    /// The messages as one error detail: duplicates removed, joined with "; ", or
    /// `fallback` when the library said nothing.
    static func detail(_ messages: [String], fallback: String) -> String {
        var seen = Set<String>()
        let unique = messages.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return fallback }
        let joined = unique.joined(separator: "; ")
        return joined.count > 400 ? String(joined.prefix(400)) + "…" : joined
    }

    // MARK: - Installing the handlers

    /// Installs the handlers exactly once (Swift runs a static initialiser once, atomically).
    private static let handlersInstalled: Void = {
        dr_gdSetErrorMethod { priority, format, arguments in
            guard priority <= GDDiagnostics.warningPriority else { return }
            GDDiagnostics.record(prefix: nil, format: format, arguments: arguments, isError: priority < GDDiagnostics.warningPriority)
        }
        let tiffError: TIFFErrorHandler = { module, format, arguments in
            GDDiagnostics.record(prefix: module, format: format, arguments: arguments, isError: true)
        }
        let tiffWarning: TIFFErrorHandler = { module, format, arguments in
            GDDiagnostics.record(prefix: module, format: format, arguments: arguments, isError: false)
        }
        _ = dr_TIFFSetErrorHandler(tiffError)
        _ = dr_TIFFSetWarningHandler(tiffWarning)
    }()

    /// Formats one message into the current thread's log, if it has one.
    private static func record(
        prefix: UnsafePointer<CChar>?, format: UnsafePointer<CChar>?, arguments: CVaListPointer?, isError: Bool
    ) {
        guard let format, let arguments, let raw = pthread_getspecific(captureKey) else { return }
        let log = Unmanaged<MessageLog>.fromOpaque(raw).takeUnretainedValue()
        guard log.errors.count + log.warnings.count < maximumMessages else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        text = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            .trimmingWhitespace()
        if let prefix, prefix.pointee != 0 {
            text = String(cString: prefix) + ": " + text
        }
        // libtiff names the file, and libgd's memory reads have no name: "Module: : reason".
        text = text.replacingEmptyNames()
        guard !text.isEmpty else { return }
        if isError { log.errors.append(text) } else { log.warnings.append(text) }
    }
}

// MARK: - What the codecs print

/// What the codecs libgd loads print straight to C's `stderr` — dav1d's "Unknown OBU type 14
/// of size 151" for a damaged AVIF, libheif's and libaom's lines — which no handler catches.
/// Once ``routeIntoErrors()`` ran, such text printed during a libgd call becomes part of
/// that call's messages (so of its one-line error); text from anywhere else still reaches
/// file descriptor 2 as before.
///
/// It replaces C's process-wide `stderr`, so executables call it at start (`darkroom`,
/// `darkroom-server`, and tools built on `DarkroomTool`); a library embedding Darkroom
/// decides for itself.
///
/// ```swift
/// CodecOutput.routeIntoErrors()
/// // darkroom: error: bad.avif: cannot decode AVIF: …: Decoding of color planes failed; Unknown OBU type 14 of size 151
/// ```
public enum CodecOutput {
    /// Routes codec output into the errors of the calls that print it. Returns whether C's
    /// `stderr` could be replaced (it can on glibc).
    @discardableResult
    public static func routeIntoErrors() -> Bool {
        darkroom_route_c_stderr { text, size in
            guard let text, let raw = pthread_getspecific(captureKey) else { return 0 }
            let log = Unmanaged<MessageLog>.fromOpaque(raw).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: text, count: size)
            let line = String(decoding: bytes, as: UTF8.self)
                .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ").trimmingWhitespace()
            if !line.isEmpty, log.errors.count + log.warnings.count < GDDiagnostics.maximumMessages {
                log.warnings.append(line)
            }
            return 1
        } == 1
    }
}

// MARK: - Per-thread capture

/// The messages of one captured call. Only ever touched by the thread that made the call.
private final class MessageLog {
    var errors: [String] = []
    var warnings: [String] = []
}

/// The thread-local slot holding the current ``MessageLog`` (an unretained pointer that
/// lives for the duration of ``GDDiagnostics/capturing(_:)``).
private let captureKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
}()

extension String {
    /// The text with every ": : " (an empty file name between two colons) made ": ".
    fileprivate func replacingEmptyNames() -> String {
        var text = self
        while let range = text.firstRange(of: ": : ") { text.replaceSubrange(range, with: ": ") }
        return text
    }

    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
