import DarkroomCore
import Foundation

// MARK: - BatchInput

/// One input file of a batch, with the relative name its outputs are written under.
public struct BatchInput: Sendable, Hashable {
    /// The path to read.
    public var path: String
    /// The path relative to the folder it was found in (or its file name), without extension:
    /// outputs go to `OUT/<variant>/<relativeStem>.<ext>`.
    public var relativeStem: String

    public init(path: String, relativeStem: String) {
        self.path = path
        self.relativeStem = relativeStem
    }
}

// MARK: - Finding inputs

extension BatchInput {
    /// Expands files and folders into inputs: a file is taken as it is; a folder is walked
    /// recursively for files with an image extension (hidden files and folders skipped),
    /// in sorted order. The same file named twice is taken once.
    /// - Throws: ``DarkroomError/io(path:detail:)`` for a path that does not exist.
    public static func expand(_ arguments: [String]) throws -> [BatchInput] {
        let fileManager = FileManager.default
        var seen: Set<String> = []
        var inputs: [BatchInput] = []
        func add(_ path: String, stem: String) {
            let canonical = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            if seen.insert(canonical).inserted { inputs.append(BatchInput(path: path, relativeStem: stem)) }
        }
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw DarkroomError.io(path: argument, detail: "no such file or directory")
            }
            guard isDirectory.boolValue else {
                add(argument, stem: stem(of: URL(fileURLWithPath: argument).lastPathComponent))
                continue
            }
            let root = URL(fileURLWithPath: argument)
            guard let walker = fileManager.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else {
                throw DarkroomError.io(path: argument, detail: "cannot read the folder")
            }
            var found: [String] = []
            for case let url as URL in walker where ImageFormat(fileExtension: url.pathExtension) != nil {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    found.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
                }
            }
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            for relative in found.sorted() {
                add(prefix + relative, stem: stem(of: relative))
            }
        }
        return inputs
    }

    private static func stem(of relative: String) -> String {
        let url = URL(fileURLWithPath: relative)
        return url.pathExtension.isEmpty ? relative : String(relative.dropLast(url.pathExtension.count + 1))
    }
}
