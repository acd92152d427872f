import DarkroomCore

// MARK: - IsolatedFormats

/// The formats to decode in workers, as `--isolate-decoders` and `$DARKROOM_ISOLATE_DECODERS`
/// write them: a comma-separated list of formats (`jpg`, `heic` and `tif` are understood),
/// `all`, or `none`.
///
/// ```swift
/// try IsolatedFormats.parse("avif,heic,tif")   // [.avif, .heif, .tiff]
/// try IsolatedFormats.parse("none")            // []
/// ```
public enum IsolatedFormats {
    /// The server's default: the formats decoded by the largest C libraries.
    public static let serverDefault = "avif,heif,tiff"

    /// What it says `text` names.
    public struct Failure: Error, CustomStringConvertible {
        /// The word that is not a format.
        public var word: String
        /// `'jxl' is not a format: expected a list of jpeg, png, …, or all, or none`.
        public var description: String {
            "'\(word)' is not a format: expected a list of \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")), or all, or none"
        }
    }

    /// The formats `text` names.
    /// - Throws: ``Failure`` for a word that is not a format.
    public static func parse(_ text: String) throws(Failure) -> Set<ImageFormat> {
        let lowered = text.lowercased().filter { $0 != " " }
        switch lowered {
        case "none", "": return []
        case "all": return Set(ImageFormat.allCases)
        default: break
        }
        let aliases = ["jpg": "jpeg", "heic": "heif", "tif": "tiff"]
        var formats = Set<ImageFormat>()
        for word in lowered.split(separator: ",").map(String.init) {
            guard let format = ImageFormat(rawValue: aliases[word] ?? word) else { throw Failure(word: word) }
            formats.insert(format)
        }
        return formats
    }
}
