import Darkroom
import Foundation

// MARK: - SampleSource

/// An example source kind: `sample://NAME` reads `NAME` from a folder the table names. The key
/// is the location; the fingerprint is the file's size and modification time, so an edited
/// sample is rendered anew.
///
/// ```toml
/// [sources.samples]
/// type = "samples"
/// folder = "/srv/samples"
/// ```
public struct SampleSource: ImageSource {
    public static let scheme = "sample://"
    public let name = "samples"
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// Registers the `samples` kind: one required key, `folder`, which must exist.
    public static func register(in registry: inout Registry) {
        registry.register(sourceKind: "samples", keys: ["folder"], summary: "sample:// names in a folder", origin: "ExampleKinds") { table in
            guard let folder = try table.string("folder") else { throw table.error("folder", "is required") }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw table.error("folder", "'\(folder)' is not a folder")
            }
            return SampleSource(folder: folder)
        }
    }

    public func canLoad(_ location: String) -> Bool { location.hasPrefix(Self.scheme) }

    public func fingerprint(for location: String) throws -> String? {
        let attributes = try FileManager.default.attributesOfItem(atPath: try path(of: location))
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size):\(modified)"
    }

    public func load(_ location: String) async throws -> SourceData {
        let path = try path(of: location)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DarkroomError.io(path: path, detail: "cannot be read")
        }
        return SourceData(key: location, bytes: [UInt8](data))
    }

    /// The file a location names; names with `/` or starting with `.` are refused.
    private func path(of location: String) throws -> String {
        let name = String(location.dropFirst(Self.scheme.count))
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw DarkroomError.invalidArgument(name: "location", value: location, expected: "sample://NAME, a file name in the samples folder")
        }
        return folder + "/" + name
    }
}
