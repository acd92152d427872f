import DarkroomCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Writing files atomically

/// Writes a file so that readers see either the old file or the complete new one, never a
/// half-written file: the bytes go to a temporary file in the same folder, are flushed,
/// and are then renamed over the destination. A failure removes the temporary file.
///
/// ```swift
/// try AtomicFileWriter.write(jpegBytes, to: "out/thumb.jpg")
/// try AtomicFileWriter.write(thumbnail, to: "out/t.jpg", flushesToDisk: false)  // reproducible output
/// ```
public enum AtomicFileWriter {
    /// Writes `bytes` to `path` atomically, creating missing parent folders.
    ///
    /// With `flushesToDisk` (the default) the file is `fsync`ed before the rename, so it also
    /// survives a crash or power loss. Without it the write is just as atomic for readers (the
    /// rename), only not durable: for outputs that a re-run reproduces, where the flush costs
    /// 1–6 ms per file (30% of `darkroom batch` making seven thumbnails).
    /// - Throws: `DarkroomError/io(path:detail:)` naming `path`.
    ///
    /// What is already at `path` decides how: a regular file is replaced; a symbolic link is
    /// followed (its target is replaced, the link kept); a character device or a FIFO with a
    /// reader is written to directly (`-o /dev/stdout`, a pipe); a folder, a dangling link, a
    /// socket, a block device or a FIFO nobody reads is refused, never renamed over.
    public static func write(
        _ bytes: [UInt8], to path: String, createDirectories: Bool = true, flushesToDisk: Bool = true
    ) throws {
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFLNK:
                guard let resolved = realpath(path, nil) else {
                    throw DarkroomError.io(path: path, detail: "is a symbolic link to nothing (\(FileBytes.errnoText(errno)))")
                }
                defer { free(resolved) }
                return try write(bytes, to: String(cString: resolved), createDirectories: false, flushesToDisk: flushesToDisk)
            case S_IFCHR, S_IFIFO:
                return try writeInPlace(bytes, to: path, isPipe: status.st_mode & S_IFMT == S_IFIFO)
            case S_IFDIR:
                throw DarkroomError.io(path: path, detail: "is a folder, not a file")
            default:
                throw DarkroomError.io(path: path, detail: "is not a regular file (a socket or a block device)")
            }
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        if createDirectories, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw DarkroomError.io(path: path, detail: "cannot create folder \(folder)")
            }
        }
        // The temporary name starts with (at most 100 bytes of) the file's own name, so that a
        // name near the 255-byte limit still leaves room for the suffix.
        var name = Substring(url.lastPathComponent)
        while name.utf8.count > 100 { name = name.dropLast() }
        let temporary = folder + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DarkroomError.io(path: path, detail: FileBytes.errnoText(errno)) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            try FileBytes.writeAll(bytes, to: fd, path: path)
            if flushesToDisk, fsync(fd) != 0 { throw DarkroomError.io(path: path, detail: FileBytes.errnoText(errno)) }
        }
        guard rename(temporary, path) == 0 else { throw DarkroomError.io(path: path, detail: FileBytes.errnoText(errno)) }
        succeeded = true
    }

    // MARK: - Temporary files left by killed writers

    /// Removes the temporary files that ``write(_:to:createDirectories:flushesToDisk:)`` left
    /// in `folder` when its process was killed mid-write (`.NAME.tmp-PID-RANDOM` whose PID is
    /// no running process), and returns how many it removed. A temporary file of a process
    /// that is still running is left to it.
    ///
    /// ```swift
    /// AtomicFileWriter.removeAbandonedTemporaryFiles(in: "out/thumbnail")   // 0, or what a kill -9 left
    /// ```
    @discardableResult
    public static func removeAbandonedTemporaryFiles(in folder: String) -> Int {
        guard let directory = opendir(folder) else { return 0 }
        defer { closedir(directory) }
        var removed = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = writerProcess(ofTemporaryName: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// The process ID in a temporary file name this writer makes (`.NAME.tmp-PID-RANDOM`).
    static func writerProcess(ofTemporaryName name: String) -> pid_t? {
        let pieces = name.split(separator: ".tmp-", omittingEmptySubsequences: false)
        guard name.hasPrefix("."), pieces.count >= 2, let suffix = pieces.last else { return nil }
        let parts = suffix.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }

    /// Writes into an existing device or FIFO (not atomic: there is no file to replace).
    /// A FIFO is opened without blocking first, so one that nobody reads is an error, not a hang.
    private static func writeInPlace(_ bytes: [UInt8], to path: String, isPipe: Bool) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC | (isPipe ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            let code = errno
            throw DarkroomError.io(path: path, detail: code == ENXIO ? "is a FIFO that nobody reads" : FileBytes.errnoText(code))
        }
        defer { close(fd) }
        if isPipe { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        try FileBytes.writeAll(bytes, to: fd, path: path)
    }
}
