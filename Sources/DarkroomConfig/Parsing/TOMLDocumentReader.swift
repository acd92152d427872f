import TOMLKit

// MARK: - TOMLDocumentReader

/// Parses one TOML text with TOMLKit and copies it into a located ``ConfigNode`` tree.
///
/// A syntax error becomes one ``Diagnostic`` at the line and column TOMLKit reports; the
/// file then contributes nothing. Every other value gets its position from ``TOMLLineLocator``.
///
/// ```swift
/// switch TOMLDocumentReader.read(text, file: "20-avatars.toml") {
/// case let .success(root): root["variants"]?["avatar"]?.location.line // 2
/// case let .failure(diagnostic): print(diagnostic)
/// }
/// ```
enum TOMLDocumentReader {
    static func read(_ text: String, file: String) -> Result<ConfigNode, DiagnosticError> {
        // TOMLKit hands the text to C as a C string: a NUL would silently end the file early.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count(where: { $0 == UInt8(ascii: "\n") }) + 1
            return .failure(DiagnosticError(.error(at: SourceLocation(file: file, line: line), "file contains a NUL byte")))
        }
        // Read first by Darkroom's own scanner (linear, bounded depth): what would crash or
        // truncate inside TOMLKit is refused here with its line.
        let locator = TOMLLineLocator(text: text)
        if let (position, message) = locator.problem {
            return .failure(DiagnosticError(.error(at: SourceLocation(file: file, line: position.line, column: position.column), message)))
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let begin = error.source.begin
            let location = SourceLocation(file: file, line: max(begin.line, 1), column: begin.column > 0 ? begin.column : nil)
            return .failure(DiagnosticError(.error(at: location, "TOML syntax error: \(error.description)")))
        } catch {
            return .failure(DiagnosticError(.error(at: .wholeFile(file), "cannot parse TOML: \(error)")))
        }
        var builder = NodeBuilder(file: file, locator: locator)
        return .success(builder.node(for: table.tomlValue, at: []))
    }
}

/// A ``Diagnostic`` carried as an `Error` (for `Result`).
struct DiagnosticError: Error, Sendable {
    let diagnostic: Diagnostic
    init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}

// MARK: - NodeBuilder

private struct NodeBuilder {
    let file: String
    let locator: TOMLLineLocator

    mutating func node(for value: TOMLValueConvertible, at path: TOMLPath) -> ConfigNode {
        let position = locator.nearestPosition(of: path)
        let location = SourceLocation(file: file, line: position.line, column: position.column)
        return ConfigNode(self.value(of: value, at: path), at: location)
    }

    mutating func value(of value: TOMLValueConvertible, at path: TOMLPath) -> ConfigValue {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return .integer(value.int ?? 0)
        case .double: return .float(value.double ?? 0)
        case .bool: return .boolean(value.bool ?? false)
        case .date: return .dateTime(value.date.map { "\($0.debugDescription)" } ?? "")
        case .time: return .dateTime(value.time.map { "\($0.debugDescription)" } ?? "")
        case .dateTime: return .dateTime(value.dateTime.map { "\($0.debugDescription)" } ?? "")
        case .array:
            guard let array = value.array else { return .array([]) }
            var elements: [ConfigNode] = []
            for (i, element) in array.enumerated() {
                elements.append(node(for: element, at: path + [.index(i)]))
            }
            return .array(elements)
        case .table:
            guard let table = value.table else { return .table([:]) }
            var members: [String: ConfigNode] = [:]
            for (key, member) in table {
                members[key] = node(for: member, at: path + [.key(key)])
            }
            return .table(members)
        }
    }
}
