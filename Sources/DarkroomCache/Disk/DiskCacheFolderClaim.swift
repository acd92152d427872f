import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - DiskCacheFolderClaim

/// Makes sure a disk cache folder is Darkroom's own before the cache deletes anything in it.
///
/// Sweeps delete old files in `<root>/tmp/` and a purge deletes `<root>/v1/` wholesale, so a
/// cache pointed by mistake at a folder that holds other files (a home folder, `/`, another
/// program's cache) would lose them. A folder is claimed with a `CACHEDIR.TAG` file (the
/// Cache Directory Tagging convention, which backup tools such as tar, borg and restic honour
/// by skipping the folder) naming Darkroom:
/// - a folder whose tag names Darkroom is ours;
/// - a new or empty folder, or one holding only the names a Darkroom cache creates (a cache
///   made before tags, or one whose first process is still setting up), is claimed: the tag
///   is written (best effort: a read-only cache can still be read);
/// - anything else — other files, or another program's tag — is refused with an error naming
///   the folder and the first foreign name, and nothing in it is touched.
///
/// ```swift
/// try DiskCacheFolderClaim.claim(DiskCacheLayout(root: "/var/cache/darkroom"))
/// ```
enum DiskCacheFolderClaim {
    /// The tag's file name and first line, as the convention fixes them.
    static let tagName = "CACHEDIR.TAG"
    static let signature = "Signature: 8a477f597d28d172789f06886806bc55"
    /// The comment line that tells Darkroom's tag from other programs'.
    static let creatorLine = "# This file is a cache directory tag created by Darkroom."

    static let tagText = signature + "\n" + creatorLine + "\n"
        + "# For information about cache directory tags, see https://bford.info/cachedir/\n"

    /// What a Darkroom cache folder may hold at its top level (see ``DiskCacheLayout``).
    static let ownNames: Set<String> = [tagName, "v1", "tmp", "stats", "sweep.lock"]

    // MARK: - Claiming

    /// Claims `layout.root` (which must exist) or throws
    /// ``DarkroomError/io(path:detail:)`` saying why the folder is not the cache's.
    static func claim(_ layout: DiskCacheLayout) throws {
        let tagPath = layout.root + "/" + tagName
        if let tag = DiskFiles.readSmallFile(atPath: tagPath) {
            let text = String(decoding: tag, as: UTF8.self)
            if text.hasPrefix(signature), text.contains(creatorLine) { return }
            if text.hasPrefix(signature) {
                throw DarkroomError.io(path: layout.root, detail: "is another program's cache folder (its \(tagName) "
                    + "does not name Darkroom); give the disk cache a folder of its own")
            }
            // A tag being written by another process right now, or a damaged one: judge the names.
        }
        if let foreign = firstForeignItem(layout) {
            throw DarkroomError.io(path: layout.root, detail: "holds '\(foreign)', which a Darkroom cache did not "
                + "create, and has no \(tagName) naming Darkroom; the cache deletes files in its folder, "
                + "so give it an empty folder of its own")
        }
        writeTag(layout)
    }

    /// The first item (as a path relative to the root) that a Darkroom cache would not have
    /// made, or `nil` when everything is ours.
    static func firstForeignItem(_ layout: DiskCacheLayout) -> String? {
        guard let names = DiskFiles.list(layout.root) else { return nil }
        for name in names.sorted() where !ownNames.contains(name) { return name }
        // Our names, but not our kind of content: a user's own `tmp` or `v1` folder.
        for name in (DiskFiles.list(layout.temporaryRoot) ?? []).sorted()
        where !name.hasSuffix(DiskCacheLayout.temporarySuffix) && !name.hasPrefix(DiskCacheLayout.purgePrefix) {
            return "tmp/" + name
        }
        for name in (DiskFiles.list(layout.entriesRoot) ?? []).sorted() where !isShardName(name) {
            return "v1/" + name
        }
        return nil
    }

    /// Whether `name` is a shard folder name: two lowercase hexadecimal digits.
    private static func isShardName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Writes the tag: to a temporary file in the folder's `tmp/`, renamed into place, so a
    /// reader never sees half of it. Failures are ignored (a read-only cache stays usable).
    private static func writeTag(_ layout: DiskCacheLayout) {
        guard DiskFiles.makeDirectories(layout.temporaryRoot) == 0 else { return }
        let temporary = layout.newTemporaryPath()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let written = DiskFiles.writeAll(descriptor, Array(tagText.utf8)) == 0
        close(descriptor)
        if !written || rename(temporary, layout.root + "/" + tagName) != 0 { unlink(temporary) }
    }
}
