import Darkroom
import Glibc

// MARK: - FileID

/// A file or folder as the file system knows it (device and inode), however its path is
/// spelled: how a batch recognises its own output folders and an output that is its input.
///
/// ```swift
/// FileID("photos/./a.jpg") == FileID("photos/a.jpg")   // true
/// ```
struct FileID: Hashable {
    var device: UInt
    var inode: UInt

    /// The file at `path`, its links followed; `nil` when it is not there.
    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt(status.st_dev)
        inode = UInt(status.st_ino)
    }
}
