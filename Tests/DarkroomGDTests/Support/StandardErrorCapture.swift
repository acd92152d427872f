import Foundation

#if canImport(Glibc)
import Glibc
#endif

// MARK: - StandardErrorCapture

/// Runs a closure with file descriptor 2 pointed at a temporary file and returns the
/// lines C libraries wrote there.
///
/// Swift Testing prints its own progress to stderr too, and other suites run in
/// parallel; its lines begin with a non-ASCII symbol (◇ ✔ ✘ ↳ …), library messages
/// with ASCII, so only the ASCII-led lines are returned. Lines of Darkroom's own loggers
/// (swift-log's `TIMESTAMP LEVEL darkroom.…:`), which pipelines in parallel tests write,
/// are not a C library's either and are left out too.
enum StandardErrorCapture {
    /// Serialises captures: fd 2 is process-wide.
    private static let lock = NSLock()

    static func libraryOutput(during body: () throws -> Void) throws -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("darkroom-stderr-\(UUID().uuidString)").path
        let file = open(path, O_CREAT | O_TRUNC | O_RDWR, 0o600)
        guard file >= 0 else { throw CaptureError.cannotOpen(path) }
        defer { close(file); unlink(path) }
        fflush(nil)
        let saved = dup(2)
        dup2(file, 2)
        do {
            try body()
        } catch {
            fflush(nil); dup2(saved, 2); close(saved)
            throw error
        }
        fflush(nil); dup2(saved, 2); close(saved)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { line in
            guard let first = line.unicodeScalars.first(where: { $0 != " " }) else { return false }
            return first.isASCII && !isDarkroomLogLine(line[...])
        }
    }

    /// `2026-11-29T14:26:27+0000 warning darkroom.pipeline: …`: a swift-log line of a
    /// `darkroom.*` logger.
    static func isDarkroomLogLine(_ line: Substring) -> Bool {
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, fields[0].count >= 19, fields[0].dropFirst(10).first == "T",
            fields[0].prefix(4).allSatisfy(\.isNumber)
        else { return false }
        let levels: Set<Substring> = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        return levels.contains(fields[1]) && fields[2].hasPrefix("darkroom.")
    }

    enum CaptureError: Error { case cannotOpen(String) }
}
