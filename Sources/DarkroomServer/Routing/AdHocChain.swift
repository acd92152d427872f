import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - AdHocChain

/// A chain built into the path instead of a configured variant, as imgproxy's and thumbor's
/// processing options are: `/SIGNATURE/chain:IDENTIFIER/SOURCE`, where `IDENTIFIER` is the
/// syntax `darkroom list` prints — filters joined by `|`, optionally `>` and encoder settings:
///
/// ```text
/// /SIGNATURE/chain:aspect-fit(height=300,width=300)|sharpen>webp(quality=75)/photos/cat.jpg
/// ```
///
/// The chain is parsed with the filters' own declarations (``Registry/chain(parsing:)``), so it is
/// validated as `filters.d/` is and canonicalised: written in another argument order, or equal to
/// a preset, it renders once and shares cache entries. It is bounded (at most
/// ``ImageServerSettings/maximumChainFilters`` filters, 2,048 characters; the pipeline's pixel
/// limits hold for its output as for any variant). Without an encoder setting the output keeps
/// the source's format. Answered only on signed paths, or with
/// ``ImageServerSettings/allowsUnsignedChains`` (`--allow-chains`).
enum AdHocChain {
    static let prefix = "chain:"
    static let maximumLength = 2048

    static func isChain(_ variant: String) -> Bool { variant.hasPrefix(prefix) }

    /// The render target of `variant` (`chain:…`).
    /// - Throws: ``ServerFailure`` 403 when chains are off, 400 for a chain too long or malformed.
    static func target(_ variant: String, registry: Registry, settings: ImageServerSettings) throws(ServerFailure) -> RenderTarget {
        guard settings.allowsChains else {
            throw .forbidden(
                "ad-hoc chains are off on this server: only configured variants (chains need signed paths, DARKROOM_KEY, or --allow-chains)")
        }
        let text = String(variant.dropFirst(prefix.count))
        guard text.count <= maximumLength else {
            throw .badRequest("the chain is \(text.count) characters: at most \(maximumLength)")
        }
        let parsed: (filters: [any ImageFilter], encoding: VariantEncoding?)
        do {
            parsed = try registry.chain(parsing: text)
        } catch {
            throw .badRequest("the chain '\(text.count > 200 ? text.prefix(200) + "…" : text)' is not valid: \(error)")
        }
        guard parsed.filters.count <= settings.maximumChainFilters else {
            throw .badRequest("the chain has \(parsed.filters.count) filters: at most \(settings.maximumChainFilters)")
        }
        let encoding = parsed.encoding ?? VariantEncoding()
        if let format = encoding.format, !registry.writableFormats.contains(format) {
            throw .badRequest("the chain asks for \(format.rawValue), which this server cannot write")
        }
        return RenderTarget(name: variant, chain: FilterChain(parsed.filters), encoding: encoding)
    }
}
