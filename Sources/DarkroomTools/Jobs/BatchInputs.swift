import Darkroom
import DarkroomCore
import DarkroomSources
import FoundationEssentials
import Glibc

// MARK: - BatchInput

/// One input of a batch — a file or an http(s) URL — with the relative name its outputs are
/// written under.
public struct BatchInput: Sendable, Hashable {
    /// The path to read, or the URL to fetch.
    public var path: String
    /// The path relative to the folder it was found in (or its file name), without extension:
    /// outputs go to `OUT/<variant>/<relativeStem>.<ext>`.
    public var relativeStem: String

    /// Creates an input reading (or fetching) `path`, its outputs written to
    /// `OUT/<variant>/<relativeStem>.<ext>`.
    public init(path: String, relativeStem: String) {
        self.path = path
        self.relativeStem = relativeStem
    }

    /// Whether ``path`` is an `http://` or `https://` URL (fetched through a source) rather
    /// than a file.
    public var isURL: Bool { Self.isURL(path) }

    /// Whether `argument` names an http(s) URL (scheme case-insensitive).
    public static func isURL(_ argument: String) -> Bool {
        let lowered = argument.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}

// MARK: - Finding inputs

extension BatchInput {
    /// Expands files, folders and URLs into inputs: a file is taken as it is; a folder is
    /// walked recursively for files with an image extension (hidden files and folders
    /// skipped), in sorted order; an http(s) URL is taken as it is, its outputs named after the
    /// last part of its path (with `-2`, `-3`… added when two URLs end alike). The same file or
    /// the same URL named twice is taken once: `key` gives a URL's canonical form (a source's
    /// `ImageSource/key(for:)`), so spellings of one URL are one input too. A walk does not
    /// enter the `skipping` folders (``outputFolders(_:variants:)``), so that outputs written
    /// inside an input folder are not taken as inputs by the next run.
    /// - Throws: the first argument's error (see ``expandAll(_:key:skipping:)``).
    public static func expand(
        _ arguments: [String], key: (String) throws -> String = { $0 }, skipping: [String] = []
    ) throws -> [BatchInput] {
        let expansion = expandAll(arguments, key: key, skipping: skipping)
        if let first = expansion.unusable.first { throw first.error }
        return expansion.inputs
    }

    /// What ``expandAll(_:key:skipping:)`` found: the inputs, and the arguments that could not
    /// be used, each with its error.
    public struct Expansion: Sendable {
        /// The inputs found, in the order of the arguments (a folder's files sorted), each once.
        public var inputs: [BatchInput] = []
        /// The arguments that could not be used, each with its error, in the order given.
        public var unusable: [Batch.Failure] = []
    }

    /// Like ``expand(_:key:skipping:)``, but an argument that cannot be used — a path that
    /// does not exist (`DarkroomError/io(path:detail:)`), a folder that cannot be read, a
    /// malformed URL (what `key` throws), another scheme — is set aside with its error and the
    /// others are still taken, so a batch can render them and report it as one failure.
    ///
    /// ```swift
    /// let found = BatchInput.expandAll(["photos", "missing.jpg"])
    /// // found.inputs: the photos; found.unusable: [missing.jpg: no such file or directory]
    /// ```
    public static func expandAll(
        _ arguments: [String], key: (String) throws -> String = { $0 }, skipping: [String] = []
    ) -> Expansion {
        var expansion = Expansion()
        let skipped = Set(skipping.compactMap(FileID.init))
        var seen: Set<String> = []
        var inputs: [BatchInput] = []
        var urlStems: Set<String> = []
        func add(_ path: String, stem: String) {
            // realpath(3) directly: Foundation's URL resolution costs ~50 µs a file.
            let canonical: String
            if let real = realpath(path, nil) {
                canonical = String(cString: real)
                free(real)
            } else {
                canonical = URL(fileURLWithPath: path).standardizedFileURL.path
            }
            if seen.insert(canonical).inserted { inputs.append(BatchInput(path: path, relativeStem: stem)) }
        }
        func take(_ argument: String) throws {
            try refuseOtherSchemes(argument)
            if isURL(argument) {
                guard seen.insert("url:" + (try key(argument))).inserted else { return }
                let base = urlStem(argument)
                var stem = base
                var counter = 1
                while !urlStems.insert(stem).inserted {
                    counter += 1
                    stem = "\(base)-\(counter)"
                }
                inputs.append(BatchInput(path: argument, relativeStem: stem))
                return
            }
            // stat(2) and string work for a file: FileManager and URL cost ~30 µs a file.
            var status = stat()
            guard stat(argument, &status) == 0 else {
                // A path through a file ("a.jpg/b.jpg") does not exist either, as FileManager said.
                let code = errno == ENOTDIR ? ENOENT : errno
                throw DarkroomError.io(path: argument, detail: FileBytes.errnoText(code))
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                add(argument, stem: stem(of: lastComponent(of: argument)))
                return
            }
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            for relative in try ImageFolderWalk.imageFiles(in: argument, skipping: skipped) {
                add(prefix + relative, stem: stem(of: relative))
            }
        }
        for argument in arguments {
            do {
                try take(argument)
            } catch {
                expansion.unusable.append(Batch.Failure(input: argument, error: error))
            }
        }
        expansion.inputs = inputs
        return expansion
    }

    /// The folders a batch into `outputDirectory` writes: the folder itself and one per
    /// variant. A folder walk skips them (the output folder itself only below the folder
    /// walked, so that `--out` may be the input folder).
    ///
    /// ```swift
    /// BatchInput.outputFolders("out", variants: ["thumbnail"])   // ["out", "out/thumbnail"]
    /// ```
    public static func outputFolders(_ outputDirectory: String, variants: [String]) -> [String] {
        let prefix = outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/"
        return [outputDirectory] + variants.map { prefix + $0 }
    }

    /// Refuses `ftp://…`, `file://…` and other URLs that are neither files nor http(s).
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` naming the input.
    public static func refuseOtherSchemes(_ argument: String) throws {
        guard !isURL(argument), let end = argument.firstRange(of: "://") else { return }
        let scheme = argument[..<end.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return }
        throw DarkroomError.invalidArgument(
            name: "input", value: argument, expected: "a file, a folder or an http(s) URL (\(scheme.lowercased()):// is not supported)")
    }

    /// Refuses an http(s) URL given to a command that reads only files (`probe`, `convert`),
    /// naming the commands that fetch it, instead of reporting "no such file".
    ///
    /// ```swift
    /// try BatchInput.refuseURL("photo.jpg", command: "probe")              // fine
    /// try BatchInput.refuseURL("https://a.example/b.jpg", command: "probe") // throws
    /// ```
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)`.
    public static func refuseURL(_ argument: String, command: String) throws {
        guard isURL(argument) else { return }
        throw DarkroomError.invalidArgument(
            name: "\(command) input", value: argument, expected: "a file (render and batch fetch URLs)")
    }

    /// The lines of a URL list file (`batch --url-list`): one location per line; blank lines
    /// and lines starting with `#` are skipped, surrounding spaces trimmed.
    /// - Throws: `DarkroomError/io(path:detail:)` when the file cannot be read.
    public static func urlList(at path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DarkroomError.io(path: path, detail: "cannot read the URL list")
        }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            throw DarkroomError.io(path: path, detail: "not a URL list: the file is not UTF-8 text")
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
        }
    }

    /// The output stem of a URL: its last path segment without extension, percent-decoded and
    /// made safe for a file name; `image` when the path is empty.
    static func urlStem(_ url: String) -> String {
        var path = Substring(url)
        if let schemeEnd = path.firstRange(of: "://") { path = path[schemeEnd.upperBound...] }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let segments = path.split(separator: "/").dropFirst()  // the host
        let last = segments.last.map { percentDecoded($0) ?? String($0) } ?? ""
        var name = stem(of: last)
        name = String(name.map { $0 == "/" || $0 == "\\" || $0.isNewline || $0 == "\0" ? "_" : $0 })
        return name.isEmpty || name.allSatisfy({ $0 == "." }) ? "image" : name
    }

    /// `text` with every `%XX` replaced by its byte; `nil` when a `%` is not followed by two hex
    /// digits or the bytes are not UTF-8 (as `removingPercentEncoding`).
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = rest.popFirst().flatMap(hexValue), let low = rest.popFirst().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The last component of a path, as `URL.lastPathComponent` gives it ("a/b.jpg" → "b.jpg").
    static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last component, as `URL.pathExtension` gives it ("" for none):
    /// see ``stem(of:)``.
    static func fileExtension(of relative: String) -> String {
        let stem = stem(of: relative)
        return stem.count == relative.count ? "" : String(relative.dropFirst(stem.count + 1))
    }

    /// `relative` without its extension, where the extension is what `URL.pathExtension` gives:
    /// the text after the last dot of the last component, unless that dot starts the component,
    /// ends it, or the text has a space ("a/b.jpg" → "a/b", ".hidden" and "a.b c" unchanged).
    /// String work, not `URL(fileURLWithPath:)`, which `stat`s the path to see if it is a folder.
    static func stem(of relative: String) -> String {
        guard !relative.hasSuffix("/") else { return relative }
        let name = lastComponent(of: relative)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return relative }
        let pathExtension = name[name.index(after: dot)...]
        guard !pathExtension.isEmpty, !pathExtension.contains(" ") else { return relative }
        return String(relative.dropLast(pathExtension.count + 1))
    }
}
