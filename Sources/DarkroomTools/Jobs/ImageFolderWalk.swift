import Darkroom
import DarkroomCore
import DarkroomSources
import Glibc

// MARK: - ImageFolderWalk

/// The image files under a folder, for `batch`: walked recursively with `opendir`/`readdir`,
/// hidden files and folders (names starting with ".") skipped, symbolic links to files
/// followed and links to folders not (no cycles), only names with an image extension kept.
/// Subfolders that are one of the `skipping` folders (the batch's output folders) are not
/// entered, so a batch writing into its input folder never takes its own outputs as inputs.
///
/// ```swift
/// try ImageFolderWalk.imageFiles(in: "photos")   // ["2024/a.jpg", "b.png"], sorted
/// ```
enum ImageFolderWalk {
    /// The paths of the image files under `folder`, relative to it, in sorted order.
    /// - Throws: ``DarkroomError/io(path:detail:)`` naming a folder that cannot be read.
    static func imageFiles(in folder: String, skipping: Set<FileID> = []) throws -> [String] {
        var found: [String] = []
        try walk(folder: folder, relative: "", skipping: skipping, into: &found)
        return found.sorted()
    }

    private static func walk(
        folder: String, relative: String, skipping: Set<FileID>, into found: inout [String]
    ) throws {
        guard let directory = opendir(folder) else {
            throw DarkroomError.io(path: folder, detail: "cannot read the folder: \(FileBytes.errnoText(errno))")
        }
        defer { closedir(directory) }
        var subfolders: [(path: String, name: String)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            switch kind(of: path, type: entry.pointee.d_type) {
            case .folder:
                if !skipping.isEmpty, let id = FileID(path), skipping.contains(id) { continue }
                subfolders.append((path, name))
            case .file where ImageFormat(fileExtension: BatchInput.fileExtension(of: name)) != nil:
                found.append(relative + name)
            default:
                continue
            }
        }
        for subfolder in subfolders {
            try walk(folder: subfolder.path, relative: relative + subfolder.name + "/", skipping: skipping, into: &found)
        }
    }

    private enum Kind { case folder, file, other }

    /// What an entry is: from `d_type` when the file system gives it, else from `lstat`; a
    /// symbolic link counts as the file it points to, never as a folder.
    private static func kind(of path: String, type: UInt8) -> Kind {
        switch Int32(type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_LNK): return pointsToRegularFile(path) ? .file : .other
        case Int32(DT_UNKNOWN):
            var status = stat()
            guard lstat(path, &status) == 0 else { return .other }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            case S_IFLNK: return pointsToRegularFile(path) ? .file : .other
            default: return .other
            }
        default: return .other
        }
    }

    /// Whether `path`, its links followed, is a regular file.
    private static func pointsToRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
