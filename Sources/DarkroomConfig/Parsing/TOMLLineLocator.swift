// MARK: - TOML paths

/// One step into a TOML document: a table key or an array index.
enum TOMLPathComponent: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case let .key(k): k
        case let .index(i): "[\(i)]"
        }
    }
}

typealias TOMLPath = [TOMLPathComponent]

/// A 1-based line and column (in Unicode scalars).
struct TOMLPosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

// MARK: - TOMLLineLocator

/// Finds where every table, key and array element of a TOML document is written.
///
/// TOMLKit reports positions for syntax errors only, so semantic errors ("unknown filter",
/// "quality out of range") need their own locator. This is a small structural scanner over the
/// raw text of a document that TOMLKit has *already accepted*: it follows table headers
/// (`[a.b]`, `[[a.b]]` with their running indices), dotted and quoted keys, inline tables,
/// arrays (across lines, with comments) and all four string forms, and records the position of
/// each path's first mention. A key's position is the start of the key; an array element's is
/// the start of the element; a table's is its header (or the key that first names it).
///
/// ```swift
/// let locator = TOMLLineLocator(text: "[variants.a]\nfilters = [\n  \"grayscale\",\n]\n")
/// locator.position(of: [.key("variants"), .key("a"), .key("filters"), .index(0)]) // line 3, column 3
/// ```
struct TOMLLineLocator: Sendable {
    /// Paths as a trie: node 0 is the root, and each step from a node is one component.
    private let steps: [PathStep: Int]
    private let positions: [Int: TOMLPosition]

    /// The first thing in the text that TOMLKit must not be given (see ``TOMLDocumentReader``):
    /// a key or string holding `\u0000`, or keys and values nested deeper than
    /// ``maximumDepth``. `nil` when there is none.
    let problem: (position: TOMLPosition, message: String)?

    /// How deep keys (`[a.b.c]`) and values (arrays, inline tables) may nest, counted in
    /// path components. Darkroom's own settings need six at most.
    static let maximumDepth = 64

    init(text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        steps = scanner.steps
        positions = scanner.positions
        problem = scanner.problem
    }

    /// Where `path` was first written, if it was written at all.
    func position(of path: TOMLPath) -> TOMLPosition? {
        var node = 0
        for component in path {
            guard let next = steps[PathStep(parent: node, component: component)] else { return nil }
            node = next
        }
        return positions[node]
    }

    /// Where `path` or, failing that, its closest written ancestor is; line 1 for the root.
    func nearestPosition(of path: TOMLPath) -> TOMLPosition {
        var node = 0
        var found = TOMLPosition(line: 1, column: 1)
        for component in path {
            guard let next = steps[PathStep(parent: node, component: component)] else { break }
            node = next
            if let position = positions[node] { found = position }
        }
        return found
    }
}

/// One step of a path from a trie node: scanning a key of n parts costs n steps, never n²
/// (a 32 KB header of 16,000 parts once took 11 s and 3 GB).
private struct PathStep: Hashable, Sendable {
    var parent: Int
    var component: TOMLPathComponent
}

// MARK: - Scanner

private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var here = TOMLPosition(line: 1, column: 1)
    var steps: [PathStep: Int] = [:]
    var positions: [Int: TOMLPosition] = [:]
    /// How many `[[path]]` elements have been opened so far, per array-of-tables node.
    var arrayTableCounts: [Int: Int] = [:]
    var problem: (position: TOMLPosition, message: String)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            here = TOMLPosition(line: here.line + 1, column: 1)
        } else if byte & 0xC0 != 0x80 {
            here.column += 1
        }
    }

    /// The node one `component` below `parent`, made on first use.
    mutating func node(_ component: TOMLPathComponent, under parent: Int) -> Int {
        let step = PathStep(parent: parent, component: component)
        if let node = steps[step] { return node }
        let node = steps.count + 1
        steps[step] = node
        return node
    }

    mutating func record(_ node: Int, at position: TOMLPosition) {
        if positions[node] == nil { positions[node] = position }
    }

    mutating func report(_ message: String, at position: TOMLPosition) {
        if problem == nil { problem = (position, message) }
    }

    /// Reports a path nested deeper than TOMLKit and the tree builder are given.
    mutating func isTooDeep(_ depth: Int, at position: TOMLPosition) -> Bool {
        guard depth > TOMLLineLocator.maximumDepth else { return false }
        report("keys and values nest more than \(TOMLLineLocator.maximumDepth) levels deep", at: position)
        return true
    }

    // MARK: - Document and headers

    mutating func scanDocument() {
        var table = (node: 0, depth: 0)
        while true {
            skipTrivia(newlines: true)
            guard problem == nil, let byte = peek else { return }
            let start = index
            if byte == UInt8(ascii: "[") {
                table = scanHeader()
            } else {
                scanKeyValue(in: table)
            }
            if index == start { advance() }  // never loop on text this scanner does not follow
        }
    }

    /// Consumes `[a.b]` or `[[a.b]]` and returns the table it opens (a trie node) and its depth.
    mutating func scanHeader() -> (node: Int, depth: Int) {
        let position = here
        advance()
        let isArray = peek == UInt8(ascii: "[")
        if isArray { advance() }
        // toml++ assumes a header's key starts with a key character or a quote: in a debug build
        // `[=a]` fails its assertion (abort), and in a release build the assumption is undefined
        // behaviour. Such a header is refused here with its line.
        skipSpaces()
        if let b = peek, !(Self.isBareKeyByte(b) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "]")) {
            report("a table header must start with a key (a bare name or a quoted string), not \(Self.describe(b))", at: here)
            return (0, 0)
        }
        let keys = scanKey()
        skipSpaces()
        while peek == UInt8(ascii: "]") { advance() }
        var node = 0, depth = 0
        for (i, key) in keys.enumerated() {
            node = self.node(.key(key), under: node)
            depth += 1
            record(node, at: position)
            if i < keys.count - 1, let count = arrayTableCounts[node] {
                node = self.node(.index(count - 1), under: node)
                depth += 1
            }
            guard !isTooDeep(depth, at: position) else { return (0, 0) }
        }
        if isArray {
            let count = arrayTableCounts[node, default: 0]
            arrayTableCounts[node] = count + 1
            node = self.node(.index(count), under: node)
            depth += 1
            record(node, at: position)
        }
        return (node, depth)
    }

    // MARK: - Keys and values

    mutating func scanKeyValue(in table: (node: Int, depth: Int)) {
        let position = here
        let keys = scanKey()
        skipSpaces()
        if peek == UInt8(ascii: "=") { advance() }
        skipSpaces()
        guard !isTooDeep(table.depth + keys.count, at: position) else { return }
        var node = table.node
        for key in keys {
            node = self.node(.key(key), under: node)
            record(node, at: position)
        }
        scanValue(at: (node, table.depth + keys.count))
    }

    mutating func scanKey() -> [String] {
        var keys: [String] = []
        while true {
            skipSpaces()
            switch peek {
            case UInt8(ascii: "\""): keys.append(scanString())
            case UInt8(ascii: "'"): keys.append(scanString())
            default:
                var raw: [UInt8] = []
                while let b = peek, Self.isBareKeyByte(b) {
                    raw.append(b)
                    advance()
                }
                keys.append(String(decoding: raw, as: UTF8.self))
            }
            skipSpaces()
            guard peek == UInt8(ascii: ".") else { return keys }
            advance()
        }
    }

    mutating func scanValue(at path: (node: Int, depth: Int)) {
        guard problem == nil, !isTooDeep(path.depth + 1, at: here) else { return }
        switch peek {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            _ = scanString()
        case UInt8(ascii: "{"):
            advance()
            while problem == nil, let b = peek, b != UInt8(ascii: "}") {
                let start = index
                skipTrivia(newlines: true)
                if peek == UInt8(ascii: "}") { break }
                scanKeyValue(in: path)
                skipTrivia(newlines: true)
                if peek == UInt8(ascii: ",") { advance() }
                if index == start { advance() }
            }
            advance()
        case UInt8(ascii: "["):
            advance()
            var element = 0
            while problem == nil {
                skipTrivia(newlines: true)
                guard let b = peek else { return }
                if b == UInt8(ascii: "]") { break }
                // toml++ assumes an element does not start with a value terminator: `[}` and a
                // Unicode line separator fail its assertion (an abort in debug builds, undefined
                // behaviour in release). No TOML value starts with '}' or a non-ASCII byte.
                if b == UInt8(ascii: "}") || b >= 0x80 {
                    report("an array element cannot start with \(Self.describe(b))", at: here)
                    return
                }
                let start = index
                let elementNode = node(.index(element), under: path.node)
                record(elementNode, at: here)
                scanValue(at: (elementNode, path.depth + 1))
                element += 1
                skipTrivia(newlines: true)
                if peek == UInt8(ascii: ",") { advance() }
                if index == start { advance() }
            }
            advance()
        default:
            // Numbers, booleans, dates (which may contain one space): up to a delimiter.
            let stops: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\n"), UInt8(ascii: "#")]
            while let b = peek, !stops.contains(b) { advance() }
        }
    }

    // MARK: - Strings

    /// Consumes a string in any of the four forms and returns its value (escapes decoded).
    mutating func scanString() -> String {
        let position = here
        let value = scanStringValue()
        // TOMLKit traps on a key holding NUL (a force-unwrap in its table iterator) and cuts a
        // string value short at it, since toml++ hands both to Swift as C strings. Reproducer
        // for upstream: `TOMLTable(string: "[\"\\u0000\"]\n")` then iterate the table.
        if value.utf8.contains(0) {
            report("a key or string holds \\u0000 (NUL), which is not allowed here", at: position)
        }
        return value
    }

    mutating func scanStringValue() -> String {
        let quote = peek ?? UInt8(ascii: "\"")
        let isBasic = quote == UInt8(ascii: "\"")
        let isMultiline = peek(1) == quote && peek(2) == quote
        advance()
        if isMultiline {
            advance()
            advance()
        } else if peek == quote {
            advance()  // the empty string
            return ""
        }
        var raw: [UInt8] = []
        while let b = peek {
            if isBasic, b == UInt8(ascii: "\\") {
                raw.append(b)
                advance()
                if let escaped = peek { raw.append(escaped); advance() }
                continue
            }
            if b == quote {
                if !isMultiline { advance(); break }
                var run = 0
                while peek(run) == quote { run += 1 }
                if run >= 3 {
                    raw.append(contentsOf: Array(repeating: quote, count: min(run - 3, 2)))
                    for _ in 0..<run { advance() }
                    break
                }
            }
            if !isMultiline, b == UInt8(ascii: "\n") { break }
            raw.append(b)
            advance()
        }
        return isBasic ? Self.unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    static func unescape(_ raw: [UInt8]) -> String {
        var out = ""
        var scalars = String(decoding: raw, as: UTF8.self).unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let code = scalars.popFirst() else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch code {
            case "b": out += "\u{08}"
            case "t": out += "\t"
            case "n": out += "\n"
            case "f": out += "\u{0C}"
            case "r": out += "\r"
            case "e": out += "\u{1B}"
            case "u", "U":
                let digits = String(String.UnicodeScalarView(scalars.prefix(code == "u" ? 4 : 8)))
                scalars = scalars.dropFirst(digits.unicodeScalars.count)
                if let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) {
                    out.unicodeScalars.append(decoded)
                }
            default: out.unicodeScalars.append(code)  // \" and \\ (and anything else, verbatim)
            }
        }
        return out
    }

    // MARK: - Trivia

    /// A byte as an error message names it: `'='`, "a line break", or its hexadecimal value.
    static func describe(_ b: UInt8) -> String {
        switch b {
        case UInt8(ascii: "\n"): "a line break"
        case UInt8(ascii: "\r"): "a carriage return"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(b)))'"
        default: "byte 0x" + String(b, radix: 16, uppercase: true)
        }
    }

    static func isBareKeyByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }

    mutating func skipSpaces() {
        while let b = peek, b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { advance() }
    }

    /// Skips spaces, comments and (when `newlines`) line breaks.
    mutating func skipTrivia(newlines: Bool) {
        while let b = peek {
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") {
                advance()
            } else if b == UInt8(ascii: "#") {
                while let c = peek, c != UInt8(ascii: "\n") { advance() }
            } else if newlines, b == UInt8(ascii: "\n") {
                advance()
            } else {
                return
            }
        }
    }
}
