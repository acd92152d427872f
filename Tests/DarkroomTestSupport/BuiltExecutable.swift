import Foundation

// MARK: - BuiltExecutable

/// Executables SwiftPM built beside the test bundle (`darkroom`, `darkroom-server`, the test
/// tools), for tests that run them as child processes.
///
/// ```swift
/// let darkroom = BuiltExecutable.url(named: "darkroom")   // .build/<triple>/debug/darkroom
/// ```
public enum BuiltExecutable {
    /// The executable `name` in the products folder the test bundle runs from (walking up from
    /// the bundle, which may be a folder on some layouts).
    public static func url(named name: String) -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path),
            folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }
}
