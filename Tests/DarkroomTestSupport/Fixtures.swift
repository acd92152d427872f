import DarkroomCore
import Foundation

// MARK: - Fixtures

/// Paths to the committed fixtures in `Tests/Fixtures` (made by `make_fixtures.py`).
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DarkroomTestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// The shared benchmark corpus beside the repository (`../shared/corpus`), when present.
    public static let corpus: URL? = {
        let url = directory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    public static func path(_ name: String) -> String { url(name).path }

    /// The bytes of a fixture; traps with the name when it is missing (a broken checkout).
    public static func bytes(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            fatalError("missing fixture \(name) in \(directory.path)")
        }
        return [UInt8](data)
    }
}

// MARK: - Temporary folders

/// A fresh temporary folder, removed when the value is deinitialised.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "darkroom-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
