import Foundation

// MARK: - A temporary cache folder

/// A fresh folder under the system temp folder, deleted with everything in it when the
/// value is released. Also lists the files a cache left in it.
final class DiskTestFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("darkroom-diskcache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Paths of the regular files under `sub` (recursively) whose names end with `suffix`.
    func files(under sub: String, endingWith suffix: String = "") -> [String] {
        let root = path + "/" + sub
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let full = root + "/" + relative
            var isFolder: ObjCBool = false
            if relative.hasSuffix(suffix), FileManager.default.fileExists(atPath: full, isDirectory: &isFolder),
                !isFolder.boolValue {
                found.append(full)
            }
        }
        return found.sorted()
    }

    /// Every entry file in the cache.
    var entryFiles: [String] { files(under: "v1", endingWith: ".entry") }

    /// The sum of the entry files' sizes.
    var entryBytes: Int { entryFiles.reduce(0) { $0 + Self.size(of: $1) } }

    /// Every item directly in `tmp/`.
    var temporaryItems: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/tmp")) ?? []).sorted()
    }

    static func size(of file: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? -1
    }

    static func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: file) }
}
