// MARK: - ImageFormat

/// The image file formats Darkroom knows about.
///
/// Formats are always detected from the bytes (``ImageFormat/detect(_:)-([UInt8])``); file
/// extensions are only used to choose an *output* format.
///
/// ```swift
/// ImageFormat(fileExtension: "JPG") // .jpeg
/// ImageFormat.png.mimeType          // "image/png"
/// ```
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// JPEG (`.jpg`), `image/jpeg`.
    case jpeg
    /// PNG, `image/png`.
    case png
    /// GIF, `image/gif`.
    case gif
    /// WebP, lossy or lossless, `image/webp`.
    case webp
    /// AVIF: AV1-coded images in a HEIF container, `image/avif`.
    case avif
    /// HEIF, usually HEVC-coded (`.heic`), `image/heif`.
    case heif
    /// TIFF, `image/tiff`.
    case tiff
    /// Windows bitmap (BMP or DIB), `image/bmp`.
    case bmp
    /// Truevision TGA, `image/x-tga`.
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

    /// Whether a file of this format can hold several pages (`DecodeOptions.page`): TIFF.
    ///
    /// ```swift
    /// ImageFormat.tiff.hasPages   // true
    /// ```
    public var hasPages: Bool { self == .tiff }

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
