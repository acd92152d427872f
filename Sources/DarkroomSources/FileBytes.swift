import DarkroomCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Reading files

/// Reads whole files into memory, refusing oversized ones before reading a byte.
///
/// ```swift
/// let bytes = try FileBytes.read("photo.jpg", maxBytes: DecodeLimits.defaultMaxInputBytes)
/// ```
public enum FileBytes {
    /// The bytes of the regular file at `path`.
    /// - Throws: `DarkroomError/io(path:detail:)` when it cannot be opened or is not a
    ///   regular file; `DarkroomError/inputTooLarge(byteCount:limit:)` when it is larger
    ///   than `maxBytes` (checked from its size, before reading).
    public static func read(_ path: String, maxBytes: Int = DecodeLimits.defaultMaxInputBytes) throws -> [UInt8] {
        // Non-blocking: opening a FIFO (or a device) that nothing writes to would otherwise wait
        // forever before the regular-file check below could refuse it. Reads of regular files
        // are unaffected.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DarkroomError.io(path: path, detail: errnoText(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw DarkroomError.io(path: path, detail: errnoText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw DarkroomError.io(path: path, detail: "is a directory, not a file") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw DarkroomError.io(path: path, detail: "not a regular file") }
        let size = Int(info.st_size)
        if size > maxBytes { throw DarkroomError.inputTooLarge(byteCount: size, limit: maxBytes) }
        if size == 0 { return try readToEnd(fd, path: path, maxBytes: maxBytes) }
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            HugePageAdvice.advise(buffer.baseAddress!, byteCount: size)
            var done = 0
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    count = 0
                    throw DarkroomError.io(path: path, detail: errnoText(errno))
                }
                if n == 0 { break }  // the file shrank while we read it
                done += n
            }
            count = done
        }
    }

    /// Everything on standard input until its end (`-` as a command's input), as a pipe or a
    /// redirected file gives it.
    ///
    /// ```swift
    /// let bytes = try FileBytes.readStandardInput(maxBytes: DecodeLimits.defaultMaxInputBytes)
    /// ```
    /// - Throws: `DarkroomError/io(path:detail:)` naming "standard input" when it is a
    ///   terminal (nothing is piped in) or a read fails; `DarkroomError/inputTooLarge(byteCount:limit:)`
    ///   past `maxBytes`; `DarkroomError/emptyInput` when it ends before any byte.
    public static func readStandardInput(maxBytes: Int = DecodeLimits.defaultMaxInputBytes) throws -> [UInt8] {
        if isatty(STDIN_FILENO) == 1 {
            throw DarkroomError.io(path: standardInputName, detail: "is a terminal; pipe an image in (darkroom convert - -o out.png < in.jpg)")
        }
        let bytes = try readToEnd(STDIN_FILENO, path: standardInputName, maxBytes: maxBytes)
        if bytes.isEmpty { throw DarkroomError.emptyInput }
        return bytes
    }

    /// Writes an image to standard output (`-` as a command's output).
    /// - Throws: `DarkroomError/io(path:detail:)` naming "standard output" when it is a
    ///   terminal (image bytes would garble it) or a write fails (a closed pipe).
    public static func writeStandardOutput(_ bytes: [UInt8]) throws {
        if isatty(STDOUT_FILENO) == 1 {
            throw DarkroomError.io(path: standardOutputName, detail: "is a terminal; redirect it to a file or a pipe")
        }
        try writeAll(bytes, to: STDOUT_FILENO, path: standardOutputName)
    }

    /// How errors name the standard streams.
    public static let standardInputName = "standard input"
    /// How errors name standard output (`-` as a command's output).
    public static let standardOutputName = "standard output"

    /// Reads a regular file that reports no size until its end: an empty file, or one that
    /// the kernel makes as it is read (`/proc`, `/sys`).
    private static func readToEnd(_ fd: Int32, path: String, maxBytes: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw DarkroomError.io(path: path, detail: errnoText(errno))
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > maxBytes { throw DarkroomError.inputTooLarge(byteCount: bytes.count, limit: maxBytes) }
        }
    }

    /// `write(2)` until every byte is out, retrying interrupted writes.
    ///
    /// ```swift
    /// try FileBytes.writeAll(Array("done\n".utf8), to: STDOUT_FILENO, path: "standard output")
    /// ```
    /// - Throws: `DarkroomError/io(path:detail:)` naming `path` when a write fails.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DarkroomError.io(path: path, detail: errnoText(errno))
                }
                done += n
            }
        }
    }

    /// A short lower-case text for an `errno` value ("no such file or directory").
    public static func errnoText(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or directory"
        case EACCES: return "permission denied"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
