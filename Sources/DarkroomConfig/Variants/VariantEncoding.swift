import DarkroomCore

// MARK: - VariantEncoding

/// A variant's encoder settings as written: every field optional, so a variant can inherit
/// what its base set and override the rest, and `format == nil` means "the source's format",
/// chosen at render time.
///
/// The ``identifier`` is part of the variant's cache key:
/// - with a format, it is `EncodeOptions/identifier` (only the settings that apply to the
///   format, defaults filled in): `png(compression=6)`, `jpeg(progressive=false,quality=80)`;
/// - without one, it is `auto(…)` listing the settings given, minus those equal to the
///   default of every format (`progressive=false`, `lossless=false`, `compression=6`,
///   `speed=6`): `auto()`, `auto(quality=80)`. Quality stays even at 80, because the AVIF
///   default is 50. No format is called `auto`, so the two kinds never collide.
///
/// ```swift
/// let same = VariantEncoding(quality: 80)
/// same.identifier                                  // "auto(quality=80)"
/// same.options(sourceFormat: .webp).identifier     // "webp(lossless=false,quality=80)"
/// VariantEncoding(format: .png).identifier         // "png(compression=6)"
/// ```
public struct VariantEncoding: Sendable, Hashable {
    /// The output format; `nil` = the same format as the source.
    public var format: ImageFormat?
    /// Lossy quality 1…100 (JPEG, WebP, AVIF).
    public var quality: Int?
    /// JPEG: progressive.
    public var progressive: Bool?
    /// JPEG: optimal Huffman tables (`optimize`; default `true`). `false` encodes in one pass,
    /// as libvips does by default: faster, and a few percent larger.
    public var optimize: Bool?
    /// PNG: zlib compression level 0…9.
    public var compression: Int?
    /// WebP: lossless.
    public var lossless: Bool?
    /// AVIF: encoder speed 0…10.
    public var speed: Int?
    /// `false` keeps the source's metadata (EXIF with orientation reset, XMP, ICC profile when
    /// still valid) in JPEG, PNG and WebP output; `nil` or `true` strips it (the default).
    public var strip: Bool?

    /// Creates encoder settings; every one left `nil` is unset (inherited from a base, else the
    /// format's default), and a `nil` `format` is the source's.
    public init(
        format: ImageFormat? = nil, quality: Int? = nil, progressive: Bool? = nil,
        compression: Int? = nil, lossless: Bool? = nil, speed: Int? = nil, strip: Bool? = nil,
        optimize: Bool? = nil
    ) {
        self.format = format
        self.quality = quality
        self.progressive = progressive
        self.compression = compression
        self.lossless = lossless
        self.speed = speed
        self.strip = strip
        self.optimize = optimize
    }

    /// The configuration keys of the encoder settings, in the order they are documented.
    public static let keys = [
        "format", "quality", "progressive", "compression", "lossless", "speed", "strip", "optimize",
    ]

    // MARK: - Inheritance

    /// These settings, with every unset one taken from `base` (a variant's own settings win).
    public func inheriting(from base: VariantEncoding) -> VariantEncoding {
        VariantEncoding(
            format: format ?? base.format, quality: quality ?? base.quality,
            progressive: progressive ?? base.progressive, compression: compression ?? base.compression,
            lossless: lossless ?? base.lossless, speed: speed ?? base.speed, strip: strip ?? base.strip,
            optimize: optimize ?? base.optimize)
    }

    // MARK: - Encoder options

    /// The encoder options for a source of `sourceFormat` (used only when ``format`` is `nil`).
    public func options(sourceFormat: ImageFormat) -> EncodeOptions {
        EncodeOptions(
            format: format ?? sourceFormat, quality: quality, progressive: progressive ?? false,
            compressionLevel: compression, lossless: lossless ?? false, speed: speed, keepsMetadata: strip == false,
            optimizesCoding: optimize)
    }

    /// The names of the settings that are given but do not apply to `format` (e.g. `quality`
    /// for PNG); empty when the format is the source's.
    public func settingsIgnored(by format: ImageFormat) -> [String] {
        var applying: Set<String> =
            switch format {
            case .jpeg: ["quality", "progressive", "optimize"]
            case .png: ["compression"]
            case .webp: ["quality", "lossless"]
            case .avif: ["quality", "speed"]
            case .gif, .bmp, .tiff, .tga, .heif: []
            }
        if EncodeOptions.formatsKeepingMetadata.contains(format) { applying.insert("strip") }
        return given.map(\.0).filter { !applying.contains($0) }
    }

    // MARK: - Identifier

    /// `EncodeOptions.identifier` for an explicit format, `auto(…)` for the source's format.
    public var identifier: String {
        if let format { return options(sourceFormat: format).identifier }
        let defaults = EncodeOptions(format: .avif)
        let meaningful = given.filter { key, value in
            switch key {
            case "progressive", "lossless": value != "false"
            case "strip", "optimize": value != "true"
            case "compression": value != String(defaults.effectiveCompressionLevel)
            case "speed": value != String(defaults.effectiveSpeed)
            default: true
            }
        }
        return "auto(" + meaningful.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + ")"
    }

    /// The settings other than the format that are set, by key, sorted.
    private var given: [(String, String)] {
        var list: [(String, String)] = []
        if let compression { list.append(("compression", String(compression))) }
        if let lossless { list.append(("lossless", String(lossless))) }
        if let optimize { list.append(("optimize", String(optimize))) }
        if let progressive { list.append(("progressive", String(progressive))) }
        if let quality { list.append(("quality", String(quality))) }
        if let speed { list.append(("speed", String(speed))) }
        if let strip { list.append(("strip", String(strip))) }
        return list
    }
}
