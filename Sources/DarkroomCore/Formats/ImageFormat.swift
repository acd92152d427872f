// MARK: - ImageFormat

/// The image file formats Darkroom knows about.
///
/// Formats are always detected from the bytes (``ImageFormat/detect(_:)``); file
/// extensions are only used to choose an *output* format.
///
/// ```swift
/// ImageFormat(fileExtension: "JPG") // .jpeg
/// ImageFormat.png.mimeType          // "image/png"
/// ```
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case jpeg
    case png
    case gif
    case webp
    case avif
    case heif
    case tiff
    case bmp
    case tga

    /// The name used in messages: "JPEG", "PNG", …
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .avif: "AVIF"
        case .heif: "HEIF"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .tga: "TGA"
        }
    }

    public var description: String { rawValue }

    /// The IANA media type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .heif: "image/heif"
        case .tiff: "image/tiff"
        case .bmp: "image/bmp"
        case .tga: "image/x-tga"
        }
    }

    /// The usual file extension, without a dot.
    public var preferredFileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .heif: "heic"
        case .tiff: "tiff"
        default: rawValue
        }
    }

    /// All extensions that name this format, lower-case, without a dot.
    public var fileExtensions: [String] {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .png: ["png"]
        case .gif: ["gif"]
        case .webp: ["webp"]
        case .avif: ["avif"]
        case .heif: ["heic", "heif", "hif"]
        case .tiff: ["tiff", "tif"]
        case .bmp: ["bmp", "dib"]
        case .tga: ["tga", "icb", "vda", "vst"]
        }
    }

    /// The format a file extension (with or without the dot, any case) names, or `nil`.
    public init?(fileExtension: String) {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        guard let match = ImageFormat.allCases.first(where: { $0.fileExtensions.contains(ext) }) else {
            return nil
        }
        self = match
    }

    /// The format a name such as `"jpeg"`, `"jpg"` or `"heic"` stands for, or `nil`.
    public init?(name: String) {
        if let exact = ImageFormat(rawValue: name.lowercased()) {
            self = exact
        } else if let byExtension = ImageFormat(fileExtension: name) {
            self = byExtension
        } else {
            return nil
        }
    }
}
