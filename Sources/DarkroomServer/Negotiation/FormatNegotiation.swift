import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - FormatNegotiation

/// Serving AVIF or WebP to clients that take them, as imgproxy's "auto AVIF" and "auto WebP"
/// and thumbor's auto-WebP do. Each JPEG variant gets twins in the offered formats — lossy WebP
/// at the same quality; AVIF at the quality imgproxy's defaults pair with it (JPEG 80 → AVIF 65,
/// scaled) — and each PNG variant a lossless WebP twin (exact pixels and alpha; AVIF is not
/// offered for PNG variants, as a lossless AVIF is larger than the PNG). A request gets the
/// first twin its `Accept` lists, AVIF before WebP, and responses of variants with a twin carry
/// `Vary: Accept`, so shared caches keep each.
///
/// Variants whose format is the source's, or another format, are served as they are.
///
/// ```swift
/// let twins = FormatNegotiation(variants: configuration.variants.map(RenderTarget.init(variant:)), offering: [.avif, .webp])
/// twins.twinTargets                        // [thumbnail (AVIF), thumbnail (WebP), avatar (WebP), …]
/// twins.variant(for: "thumbnail", accept: "image/avif,image/webp,*/*")   // the AVIF twin's name
/// ```
public struct FormatNegotiation: Sendable {
    /// The formats twins may have, most preferred first (AVIF, then WebP).
    public static let negotiable: [ImageFormat] = [.avif, .webp]

    /// The twins' names by variant name, most preferred format first.
    public let twinNames: [String: [(format: ImageFormat, name: String)]]
    /// The twins, to add to the pipeline's variants.
    public let twinTargets: [RenderTarget]

    /// Twins of `variants` in the formats of `offering` that are ``negotiable``.
    public init(variants: [RenderTarget], offering: Set<ImageFormat>) {
        var names: [String: [(format: ImageFormat, name: String)]] = [:]
        var targets: [RenderTarget] = []
        for variant in variants {
            for format in Self.negotiable where offering.contains(format) {
                guard let encoding = Self.twinEncoding(of: variant.encoding, in: format) else { continue }
                let name = Self.twinName(of: variant.name, format: format)
                names[variant.name, default: []].append((format, name))
                targets.append(RenderTarget(name: name, chain: variant.chain, encoding: encoding))
            }
        }
        twinNames = names
        twinTargets = targets
    }

    /// The settings of a twin in `format` of a variant encoded with `encoding`, or `nil` when
    /// the variant gets no twin in that format.
    static func twinEncoding(of encoding: VariantEncoding, in format: ImageFormat) -> VariantEncoding? {
        switch (encoding.format, format) {
        case (.jpeg, .webp):
            return VariantEncoding(format: .webp, quality: encoding.quality)
        case (.jpeg, .avif):
            let quality = Double(EncodeOptions(format: .jpeg, quality: encoding.quality).effectiveQuality) * 65 / 80
            return VariantEncoding(format: .avif, quality: min(100, max(1, Int(quality.rounded()))))
        case (.png, .webp):
            return VariantEncoding(format: .webp, lossless: true)
        default:
            return nil
        }
    }

    /// A twin's name: the variant's, a NUL and the format, which no request path can carry
    /// (``PercentEncoding/decode(_:)`` refuses NUL), so only negotiation reaches it.
    static func twinName(of name: String, format: ImageFormat) -> String { name + "\u{0}" + format.rawValue }

    /// Whether `variant` has a twin (its responses then vary with `Accept`).
    public func negotiates(_ variant: String) -> Bool { twinNames[variant] != nil }

    /// The variant to render for a request with this `Accept` header: the first twin (AVIF,
    /// then WebP) whose media type the client lists with a non-zero quality, else `variant`.
    public func variant(for variant: String, accept: String?) -> String {
        guard let twins = twinNames[variant], let accept else { return variant }
        let accepted = Self.acceptedTypes(accept)
        return twins.first { accepted.contains($0.format.mimeType) }?.name ?? variant
    }

    /// The media types an `Accept` header lists (lowercased) without `q=0`. Wildcards such as
    /// `image/*` are not counted: browsers send them without being able to show every format.
    static func acceptedTypes(_ accept: String) -> Set<String> {
        var types: Set<String> = []
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingHeaderSpace.lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { types.insert(type) }
        }
        return types
    }
}
