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
        guard path.hasPrefix("/") else { throw .badRequest("the path must start with '/'") }
        switch path {
        case "/health":
            self = .health
            return
        case "/metrics":
            self = .metrics
            return
        case "/ready":
            self = .ready
            return
        case "/admin/purge":
            self = .purge
            return
        default:
            break
        }
        var signed = path
        if let signer {
            let afterSlash = path.dropFirst()
            guard let end = afterSlash.firstIndex(of: "/"), end > afterSlash.startIndex else {
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

    /// `.image` from `/VARIANT/SOURCE`.
    private static func image(in path: Substring) throws(ServerFailure) -> ImageServerRoute {
        let afterSlash = path.dropFirst()
        guard let end = afterSlash.firstIndex(of: "/"), end > afterSlash.startIndex else {
            throw .badRequest("expected /VARIANT/SOURCE, got \(String(path))")
        }
        guard let variant = PercentEncoding.decode(afterSlash[..<end]) else {
            throw .badRequest("the variant name \(String(afterSlash[..<end])) is not valid percent-encoded UTF-8")
        }
        let rawSource = afterSlash[afterSlash.index(after: end)...]
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
