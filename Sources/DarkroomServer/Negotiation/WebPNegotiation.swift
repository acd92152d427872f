import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - WebPNegotiation

/// Serving WebP to clients that take it, as imgproxy's and thumbor's "auto WebP" do: a JPEG
/// variant is also rendered as lossy WebP at the same quality, a PNG variant as lossless WebP
/// (exact pixels and alpha), and a request whose `Accept` lists `image/webp` gets that twin.
/// Responses of variants with a twin carry `Vary: Accept`, so shared caches keep both.
///
/// Variants whose format is the source's, or another format, are served as they are.
///
/// ```swift
/// let twins = WebPNegotiation(variants: configuration.variants.map(RenderTarget.init(variant:)))
/// twins.twinTargets                        // [thumbnail (WebP), avatar (WebP), …]
/// twins.variant(for: "thumbnail", accept: "image/avif,image/webp,*/*")   // the WebP twin's name
/// ```
public struct WebPNegotiation: Sendable {
    /// The twin's name by variant name.
    public let twinNames: [String: String]
    /// The twins, to add to the pipeline's variants.
    public let twinTargets: [RenderTarget]

    public init(variants: [RenderTarget]) {
        var names: [String: String] = [:]
        var targets: [RenderTarget] = []
        for variant in variants {
            var encoding = variant.encoding
            switch encoding.format {
            case .jpeg:
                encoding = VariantEncoding(format: .webp, quality: encoding.quality)
            case .png:
                encoding = VariantEncoding(format: .webp, lossless: true)
            default:
                continue
            }
            let name = Self.twinName(of: variant.name)
            names[variant.name] = name
            targets.append(RenderTarget(name: name, chain: variant.chain, encoding: encoding))
        }
        twinNames = names
        twinTargets = targets
    }

    /// The twin's name: the variant's plus a NUL, which no request path can carry
    /// (``PercentEncoding/decode(_:)`` refuses it), so only negotiation reaches it.
    static func twinName(of name: String) -> String { name + "\u{0}webp" }

    /// Whether `variant` has a twin (its responses then vary with `Accept`).
    public func negotiates(_ variant: String) -> Bool { twinNames[variant] != nil }

    /// The variant to render for a request with this `Accept` header: the twin when the
    /// client lists `image/webp` with a non-zero quality, else `variant` itself.
    public func variant(for variant: String, accept: String?) -> String {
        guard let twin = twinNames[variant], let accept, Self.accepts(webp: accept) else { return variant }
        return twin
    }

    /// Whether an `Accept` header lists `image/webp` (any case) without `q=0`.
    static func accepts(webp accept: String) -> Bool {
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingHeaderSpace.lowercased() }
            guard parts.first == "image/webp" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }
}
