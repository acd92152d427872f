#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - DiskFiles

/// Thin, `EINTR`-safe wrappers over the POSIX calls the disk cache is built on.
///
/// Everything here is a single system call or a short loop of them; none of it keeps state.
/// Failures come back as `errno` values (or `nil`), and the cache decides what a failure means.
enum DiskFiles {
    // MARK: - File status

    /// The parts of `struct stat` the cache uses.
    struct Status: Sendable {
        var size: Int
        var device: UInt64
        var inode: UInt64
        var isDirectory: Bool
        var isRegularFile: Bool
        /// Last access, nanoseconds since 1970: the LRU clock.
        var accessedNanoseconds: Int
        /// Last modification, nanoseconds since 1970: the time the entry was written.
        var modifiedNanoseconds: Int

        init(_ raw: stat) {
            size = Int(raw.st_size)
            device = UInt64(raw.st_dev)
            inode = UInt64(raw.st_ino)
            isDirectory = (raw.st_mode & S_IFMT) == S_IFDIR
            isRegularFile = (raw.st_mode & S_IFMT) == S_IFREG
            accessedNanoseconds = DiskFiles.nanoseconds(raw.st_atim)
            modifiedNanoseconds = DiskFiles.nanoseconds(raw.st_mtim)
        }

        /// Whether `other` describes the same file (not merely the same path).
        func isSameFile(as other: Status) -> Bool { device == other.device && inode == other.inode }
    }

    /// `lstat(path)`, or `nil` if the path does not exist or cannot be examined.
    static func status(atPath path: String) -> Status? {
        var raw = stat()
        guard lstat(path, &raw) == 0 else { return nil }
        return Status(raw)
    }

    /// `fstat(fd)`.
    static func status(of descriptor: Int32) -> Status? {
        var raw = stat()
        guard fstat(descriptor, &raw) == 0 else { return nil }
        return Status(raw)
    }

    // MARK: - Time

    /// The wall clock with nanosecond resolution (not the kernel's coarse file-time clock).
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    static func nanoseconds(_ time: timespec) -> Int { Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec) }

    static func timespecFrom(secondsSince1970 seconds: Double) -> timespec {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return now() }
        let whole = seconds.rounded(.down)
        let nanos = min(999_999_999, max(0, Int(((seconds - whole) * 1e9).rounded())))
        return timespec(tv_sec: Int(whole), tv_nsec: nanos)
    }

    /// `UTIME_OMIT`, a C macro Swift cannot import: "leave this time alone".
    #if os(Linux)
    private static let utimeOmit = (1 << 30) - 2
    #else
    private static let utimeOmit = -2
    #endif

    /// Sets a file's access time to `accessed`, and its modification time to `modified` if given.
    @discardableResult
    static func setTimes(of descriptor: Int32, accessed: timespec, modified: timespec?) -> Bool {
        let omit = timespec(tv_sec: 0, tv_nsec: utimeOmit)
        let times = [accessed, modified ?? omit]
        return times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) } == 0
    }

    // MARK: - Reading and writing

    /// Writes all of `bytes`, retrying short writes and `EINTR`. Returns 0 or an `errno` value.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let written = write(descriptor, raw.baseAddress! + done, raw.count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += written
            }
            return 0
        }
    }

    /// Exactly `count` bytes from `offset`, or `nil` on an error or a short read.
    static func read(_ descriptor: Int32, count: Int, at offset: Int) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                if got <= 0 { break }
                done += got
            }
            if done < count {
                complete = false
                // Zero the rest so the array is fully initialised; it is discarded anyway.
                (buffer.baseAddress! + done).initialize(repeating: 0, count: count - done)
            }
            initialized = count
        }
        return complete ? bytes : nil
    }

    /// The whole file at `path` (small files only: `source` and `stats`).
    static func readSmallFile(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let status = status(of: descriptor), status.size <= 1 << 20 else { return nil }
        return read(descriptor, count: status.size, at: 0)
    }

    // MARK: - Folders

    /// `mkdir -p`: creates `path` and any missing parents. Safe to race with other threads
    /// and processes doing the same (an existing folder is success). Returns 0 or an `errno`.
    @discardableResult
    static func makeDirectories(_ path: String) -> Int32 {
        if mkdir(path, 0o755) == 0 { return 0 }
        switch errno {
        case EEXIST:
            return status(atPath: path)?.isDirectory == true ? 0 : EEXIST
        case ENOENT:
            let parent = parentPath(path)
            guard !parent.isEmpty, parent != path else { return ENOENT }
            let parentResult = makeDirectories(parent)
            guard parentResult == 0 else { return parentResult }
            if mkdir(path, 0o755) == 0 || errno == EEXIST { return 0 }
            return errno
        default:
            return errno
        }
    }

    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Names in a folder, without `.` and `..`; `nil` if it cannot be opened.
    static func list(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let item = readdir(folder) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// What ``removeTree(_:)`` removed.
    struct Removal: Sendable {
        var entries = 0
        var entryBytes = 0
    }

    /// `rm -rf path`, counting the cache entry files (`*.entry`) it removes.
    @discardableResult
    static func removeTree(_ path: String) -> Removal {
        var removal = Removal()
        guard let status = status(atPath: path) else { return removal }
        if status.isDirectory {
            // A rename that looked up a folder's old path just before the folder was moved
            // aside can still land in it, after the listing: list again, a few times.
            for _ in 0..<4 {
                for name in list(path) ?? [] {
                    let child = removeTree(path + "/" + name)
                    removal.entries += child.entries
                    removal.entryBytes += child.entryBytes
                }
                if rmdir(path) == 0 || errno != ENOTEMPTY { break }
            }
        } else if unlink(path) == 0, path.hasSuffix(DiskCacheLayout.entrySuffix) {
            removal.entries += 1
            removal.entryBytes += status.size
        }
        return removal
    }

    // MARK: - Errors

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
