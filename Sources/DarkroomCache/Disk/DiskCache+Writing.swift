import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Atomic writes

extension DiskCache {
    /// Writes `chunks` to a new file in `tmp/`, `fsync`s it and renames it over `path`,
    /// creating `folder` (and its parents) if needed — also when another process removed it
    /// meanwhile — and then sets its times. The temp file is removed on any failure.
    ///
    /// The times are set after the rename so that a temp file's modification time is always
    /// its real write time, which is how sweeps recognise abandoned ones.
    /// - Returns: the status of the file that was replaced, if there was one (for the estimate).
    @discardableResult
    func writeAtomically(
        _ chunks: [[UInt8]], to path: String, in folder: String, times: (accessed: timespec, modified: timespec)?
    ) throws -> DiskFiles.Status? {
        let temporary = layout.newTemporaryPath()
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            DiskFiles.makeDirectories(layout.temporaryRoot)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else {
            throw DarkroomError.io(path: path, detail: "cannot create a temporary file in \(layout.temporaryRoot): "
                + DiskFiles.describe(errno))
        }
        defer { close(descriptor) }
        var placed = false
        defer {
            if !placed { unlink(temporary) }
        }
        for chunk in chunks {
            let failure = DiskFiles.writeAll(descriptor, chunk)
            guard failure == 0 else {
                throw DarkroomError.io(path: path, detail: "cannot write the entry: \(DiskFiles.describe(failure))")
            }
        }
        guard fsync(descriptor) == 0 else {
            throw DarkroomError.io(path: path, detail: "cannot flush the entry: \(DiskFiles.describe(errno))")
        }
        let replaced = DiskFiles.status(atPath: path)
        try moveIntoPlace(temporary, to: path, in: folder)
        placed = true
        if let times { DiskFiles.setTimes(of: descriptor, accessed: times.accessed, modified: times.modified) }
        return replaced
    }

    /// `rename`, recreating the destination folder when it is missing (first write to a
    /// source, or a sweep/purge removed the folder between our `mkdir` and our `rename`).
    private func moveIntoPlace(_ temporary: String, to path: String, in folder: String) throws {
        let attempts = 4
        for attempt in 1...attempts {
            if rename(temporary, path) == 0 { return }
            let failure = errno
            guard failure == ENOENT, attempt < attempts else {
                throw DarkroomError.io(path: path, detail: "cannot move the entry into place: \(DiskFiles.describe(failure))")
            }
            let made = DiskFiles.makeDirectories(folder)
            guard made == 0 else {
                throw DarkroomError.io(path: path, detail: "cannot create the folder \(folder): \(DiskFiles.describe(made))")
            }
        }
    }
}
