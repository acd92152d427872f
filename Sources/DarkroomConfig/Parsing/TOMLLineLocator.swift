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
    private(set) var positions: [TOMLPath: TOMLPosition] = [:]

    init(text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        positions = scanner.positions
    }

    /// Where `path` was first written, if it was written at all.
    func position(of path: TOMLPath) -> TOMLPosition? { positions[path] }

    /// Where `path` or, failing that, its closest written ancestor is; line 1 for the root.
    func nearestPosition(of path: TOMLPath) -> TOMLPosition {
        var path = path
        while !path.isEmpty {
            if let found = positions[path] { return found }
            path.removeLast()
        }
        return TOMLPosition(line: 1, column: 1)
    }
}

// MARK: - Scanner

private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var here = TOMLPosition(line: 1, column: 1)
    var positions: [TOMLPath: TOMLPosition] = [:]
    /// How many `[[path]]` elements have been opened so far, per array-of-tables path.
    var arrayTableCounts: [TOMLPath: Int] = [:]

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

    mutating func record(_ path: TOMLPath, at position: TOMLPosition) {
        if positions[path] == nil { positions[path] = position }
    }

    // MARK: - Document and headers

    mutating func scanDocument() {
        var table: TOMLPath = []
        while true {
            skipTrivia(newlines: true)
            guard let byte = peek else { return }
            let start = index
            if byte == UInt8(ascii: "[") {
                table = scanHeader()
            } else {
                scanKeyValue(in: table)
            }
            if index == start { advance() }  // never loop on text this scanner does not follow
        }
    }

    mutating func scanHeader() -> TOMLPath {
        let position = here
        advance()
        let isArray = peek == UInt8(ascii: "[")
        if isArray { advance() }
        let keys = scanKey()
        skipSpaces()
        while peek == UInt8(ascii: "]") { advance() }
        var path: TOMLPath = []
        for (i, key) in keys.enumerated() {
            path.append(.key(key))
            record(path, at: position)
            if i < keys.count - 1, let count = arrayTableCounts[path] { path.append(.index(count - 1)) }
        }
        if isArray {
            let count = arrayTableCounts[path, default: 0]
            arrayTableCounts[path] = count + 1
            path.append(.index(count))
            record(path, at: position)
        }
        return path
    }

    // MARK: - Keys and values

    mutating func scanKeyValue(in table: TOMLPath) {
        let position = here
        let keys = scanKey()
        skipSpaces()
        if peek == UInt8(ascii: "=") { advance() }
        skipSpaces()
        var path = table
        for key in keys {
            path.append(.key(key))
            record(path, at: position)
        }
        scanValue(at: path)
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

    mutating func scanValue(at path: TOMLPath) {
        switch peek {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            _ = scanString()
        case UInt8(ascii: "{"):
            advance()
            while let b = peek, b != UInt8(ascii: "}") {
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
            while true {
                skipTrivia(newlines: true)
                guard let b = peek else { return }
                if b == UInt8(ascii: "]") { break }
                let start = index
                let elementPath = path + [.index(element)]
                record(elementPath, at: here)
                scanValue(at: elementPath)
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
