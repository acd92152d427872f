// MARK: - EncodeOptions

/// Encoder settings. Only the settings that apply to ``format`` matter; the rest are ignored,
/// and ``identifier`` — part of every variant's cache key — lists exactly the ones that apply,
/// with defaults filled in, so `jpeg` and `jpeg, quality 80` share one identifier.
///
/// | format | settings (default) |
/// | --- | --- |
/// | jpeg | `quality` 1…100 (80), `progressive` (false), `optimizesCoding` (the encoder's: true) |
/// | png | `compressionLevel` 0…9 (6) |
/// | webp | `quality` 1…100 (80), `lossless` (false) |
/// | avif | `quality` 1…100 (50), `speed` 0…10 (6) |
/// | gif, bmp, tiff | none |
///
/// ``keepsMetadata`` (`strip = false` in a variant) applies to JPEG, PNG and WebP, and is in the
/// identifier only when set: `jpeg(progressive=false,quality=80,strip=false)`. So is
/// ``optimizesCoding`` when `false`: `jpeg(optimize=false,progressive=false,quality=80)`.
///
/// ```swift
/// EncodeOptions(format: .jpeg).identifier               // "jpeg(progressive=false,quality=80)"
/// EncodeOptions(format: .webp, lossless: true).identifier // "webp(lossless=true)"
/// ```
public struct EncodeOptions: Sendable, Hashable {
    /// The format to encode to; it decides which of the other settings apply.
    public var format: ImageFormat
    /// Lossy quality, 1…100. `nil` = the format's default.
    public var quality: Int?
    /// JPEG: write a progressive JPEG.
    public var progressive: Bool
    /// JPEG: compute optimal Huffman tables (`optimize` in a variant; libvips's
    /// `optimize_coding`, sharp's `optimiseCoding`). They make files a few percent smaller and
    /// the encode slower: an extra pass over every coefficient, which the encoder keeps for the
    /// whole image. `nil` = the encoder's own setting (`JPEGEncoder`: on). Progressive files
    /// always get optimal tables.
    public var optimizesCoding: Bool?
    /// PNG: zlib level 0…9. `nil` = 6.
    public var compressionLevel: Int?
    /// WebP: lossless coding (quality is then ignored).
    public var lossless: Bool
    /// AVIF: encoder speed 0 (slowest, smallest) … 10 (fastest). `nil` = 6.
    public var speed: Int?
    /// Copy the source's EXIF (orientation reset), XMP and ICC profile (when still valid) into
    /// the output, as sharp's `withMetadata()`; default `false` (stripped).
    public var keepsMetadata: Bool

    /// The formats whose encoders write metadata, so ``keepsMetadata`` applies to them.
    public static let formatsKeepingMetadata: Set<ImageFormat> = [.jpeg, .png, .webp]

    /// Builds settings for `format`; a `nil` or omitted setting takes the format's default (see
    /// ``EncodeOptions``), and settings that do not apply to `format` are ignored.
    public init(
        format: ImageFormat, quality: Int? = nil, progressive: Bool = false,
        compressionLevel: Int? = nil, lossless: Bool = false, speed: Int? = nil, keepsMetadata: Bool = false,
        optimizesCoding: Bool? = nil
    ) {
        self.format = format
        self.quality = quality
        self.progressive = progressive
        self.optimizesCoding = optimizesCoding
        self.compressionLevel = compressionLevel
        self.lossless = lossless
        self.speed = speed
        self.keepsMetadata = keepsMetadata
    }

    // MARK: - Effective values

    /// The quality the encoder will use.
    public var effectiveQuality: Int {
        quality ?? (format == .avif ? 50 : 80)
    }

    /// The PNG compression level the encoder will use.
    public var effectiveCompressionLevel: Int { compressionLevel ?? 6 }

    /// The AVIF speed the encoder will use.
    public var effectiveSpeed: Int { speed ?? 6 }

    // MARK: - Validation

    /// Throws ``DarkroomError/invalidArgument(name:value:expected:)`` for out-of-range values.
    public func validate() throws {
        if let quality, !(1...100).contains(quality) {
            throw DarkroomError.invalidArgument(name: "quality", value: String(quality), expected: "an integer 1…100")
        }
        if let compressionLevel, !(0...9).contains(compressionLevel) {
            throw DarkroomError.invalidArgument(
                name: "compression level", value: String(compressionLevel), expected: "an integer 0…9")
        }
        if let speed, !(0...10).contains(speed) {
            throw DarkroomError.invalidArgument(name: "speed", value: String(speed), expected: "an integer 0…10")
        }
    }

    // MARK: - Identifier

    /// The canonical text of the settings that apply to ``format``: `format(key=value,…)`,
    /// keys sorted, defaults filled in.
    public var identifier: String {
        var arguments: [(String, String)] = []
        switch format {
        case .jpeg:
            arguments = [("progressive", String(progressive)), ("quality", String(effectiveQuality))]
            if optimizesCoding == false { arguments.append(("optimize", "false")) }
        case .png:
            arguments = [("compression", String(effectiveCompressionLevel))]
        case .webp:
            arguments = lossless ? [("lossless", "true")] : [("lossless", "false"), ("quality", String(effectiveQuality))]
        case .avif:
            arguments = [("quality", String(effectiveQuality)), ("speed", String(effectiveSpeed))]
        case .gif, .bmp, .tiff, .tga, .heif:
            arguments = []
        }
        if keepsMetadata, Self.formatsKeepingMetadata.contains(format) { arguments.append(("strip", "false")) }
        let list = arguments.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        return "\(format.rawValue)(\(list))"
    }
}
