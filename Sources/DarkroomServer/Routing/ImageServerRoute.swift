// MARK: - ImageServerRoute

/// What a request path asks for.
///
/// - `/health` — a liveness check.
/// - `/ready` — a readiness check: every cache layer that must be waited for answers.
/// - `/metrics` — the metrics, when the server has them (``ServerMetrics``).
/// - `/admin/purge` — the admin endpoint, when the server has a token (`AdminEndpoint`).
/// - `/VARIANT/SOURCE` — the variant of a source, `SOURCE` being a path under the server's
///   root (`photos/cat.jpg`) or a percent-encoded `http(s)` URL
///   (`https%3A%2F%2Fexample.com%2Fcat.jpg`; `https://example.com/cat.jpg` as it is works too
///   when it has no `?` or `#`).
/// - `/SIGNATURE/VARIANT/SOURCE` — the same, when the server checks signatures (``URLSigner``).
///
/// The request's query string is not part of the route (cache-busting `?v=2` is ignored).
///
/// ```swift
/// try ImageServerRoute(path: "/thumbnail/photos/cat.jpg", signer: nil)
/// // .image(variant: "thumbnail", source: "photos/cat.jpg")
/// ```
public enum ImageServerRoute: Sendable, Equatable {
    /// `/health`: the liveness check.
    case health
    /// `/ready`: the readiness check.
    case ready
    /// `/metrics`: the metrics in Prometheus' text format.
    case metrics
    /// `/admin/purge`: the admin endpoint, which purges a source's cached renders.
    case purge
    /// `/VARIANT/SOURCE` (after any signature): the variant's name (or an ad-hoc `chain:…`)
    /// and the source, both percent-decoded.
    case image(variant: String, source: String)

    /// The route of a request path (the raw path, without the query).
    /// - Throws: ``ServerFailure`` 400 for a malformed path, 403 for a missing or wrong signature.
    public init(path: String, signer: URLSigner?) throws(ServerFailure) {
        let path = path[...]
        guard path.utf8.first == UInt8(ascii: "/") else { throw .badRequest("the path must start with '/'") }
        if let fixed = Self.fixedRoute(path) {
            self = fixed
            return
        }
        var signed = path
        if let signer {
            let afterSlash = path.dropFirst()
            guard let end = afterSlash.utf8.firstIndex(of: UInt8(ascii: "/")), end > afterSlash.startIndex else {
                throw .forbidden("this server takes signed paths only: /SIGNATURE/VARIANT/SOURCE")
            }
            signed = path[end...]
            let signature = afterSlash[..<end]
            // An HMAC-SHA256 in unpadded base64url is 43 characters: anything else is a path
            // sent without one (its variant read as a signature), said so.
            guard signature.count == 43, signature.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                throw .forbidden(
                    "this server takes signed paths only: /SIGNATURE/VARIANT/SOURCE, the signature being 43 base64url characters ('\(String(signature.prefix(64)))' is not one)")
            }
            guard signer.isValid(signature: signature, for: signed) else {
                throw .forbidden("the signature does not match the path \(String(signed)) (signed paths are /SIGNATURE/VARIANT/SOURCE)")
            }
        }
        self = try Self.image(in: signed)
    }

    /// `/health`, `/metrics`, `/ready` or `/admin/purge`, compared only when the length is one
    /// of theirs: an image path is parsed on every memory hit, and this file's work was 2.9 % of
    /// a hit's CPU when it went Character by Character.
    private static func fixedRoute(_ path: Substring) -> ImageServerRoute? {
        switch path.utf8.count {
        case 6: path == "/ready" ? .ready : nil
        case 7: path == "/health" ? .health : nil
        case 8: path == "/metrics" ? .metrics : nil
        case 12: path == "/admin/purge" ? .purge : nil
        default: nil
        }
    }

    /// `.image` from `/VARIANT/SOURCE`.
    private static func image(in path: Substring) throws(ServerFailure) -> ImageServerRoute {
        let afterSlash = path.dropFirst()
        guard let end = afterSlash.utf8.firstIndex(of: UInt8(ascii: "/")), end > afterSlash.startIndex else {
            throw .badRequest("expected /VARIANT/SOURCE, got \(String(path))")
        }
        guard let variant = PercentEncoding.decode(afterSlash[..<end]) else {
            throw .badRequest("the variant name \(String(afterSlash[..<end])) is not valid percent-encoded UTF-8")
        }
        let rawSource = afterSlash[afterSlash.utf8.index(after: end)...]
        guard !rawSource.isEmpty else { throw .badRequest("no source after /\(variant)/") }
        guard let source = PercentEncoding.decode(rawSource) else {
            throw .badRequest("the source \(String(rawSource)) is not valid percent-encoded UTF-8")
        }
        return .image(variant: variant, source: restoringSchemeSlashes(source))
    }

    /// `https:/host/…` back to `https://host/…`: proxies and clients merge the slashes of a
    /// URL written into a path unescaped.
    static func restoringSchemeSlashes(_ source: String) -> String {
        // Most sources are paths: one byte decides, before any string is built.
        guard source.utf8.first == UInt8(ascii: "h") else { return source }
        for scheme in ["http:/", "https:/"] where source.hasPrefix(scheme) && !source.hasPrefix(scheme + "/") {
            return scheme + "/" + source.dropFirst(scheme.count)
        }
        return source
    }
}
