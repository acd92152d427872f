import Foundation

// MARK: - ExampleFolder

/// A temporary folder for a test's `filters.d/`, removed when the value goes.
final class ExampleFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/darkroom-examples-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Darkroom's own fixture `name` (Tests/Fixtures), as bytes.
    static func fixture(_ name: String) throws -> [UInt8] {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return [UInt8](try Data(contentsOf: examples.appendingPathComponent("../Tests/Fixtures/" + name)))
    }
}
