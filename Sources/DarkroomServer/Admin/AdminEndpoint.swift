import Darkroom
import Foundation

// MARK: - AdminEndpoint

/// `POST /admin/purge`: removes every cached render of one source from this server's layers;
/// a shared layer that keeps a purge log (memcached) passes it on, so every server of the
/// cluster stops serving the old renders within its poll interval (0.25 s by default).
///
/// Off unless the server has a token (``ImageServerSettings/adminToken``; `darkroom-server`
/// reads `$DARKROOM_ADMIN_TOKEN`). The request carries it as `Authorization: Bearer TOKEN`
/// and names the source as it appears in image paths, in the query (`?source=`, percent-
/// encoded) or in a JSON body (`{"source": "…"}`). The answer is JSON: the source's cache key
/// and, per layer, how many entries went (`null` when the layer cannot count) or its error.
///
/// ```sh
/// curl -X POST -H "Authorization: Bearer $DARKROOM_ADMIN_TOKEN" \
///      "http://127.0.0.1:8080/admin/purge?source=https%3A%2F%2Fexample.com%2Fcat.jpg"
/// ```
enum AdminEndpoint {
    /// The shortest token accepted: a guessable token would let anyone purge.
    static let minimumTokenLength = 16

    /// What a purge answers.
    struct PurgeReport: Encodable {
        struct Layer: Encodable {
            var removed: Int?
            var error: String?
        }

        var source: String
        var key: String
        var layers: [String: Layer]
    }

    /// Whether `authorization` is `Bearer token`, compared in constant time.
    static func isAuthorized(_ authorization: String?, token: String) -> Bool {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return false }
        let given = Array(authorization.dropFirst(7).trimmingCharacters(in: .whitespaces).utf8)
        let expected = Array(token.utf8)
        var difference = given.count ^ expected.count
        for index in expected.indices { difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }

    /// The source a purge request names: `?source=` in the path's query, else the JSON body's.
    static func source(of request: ImageServerRequest) throws(ServerFailure) -> String {
        let parts = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where pair.hasPrefix("source=") {
                let raw = pair.dropFirst("source=".count).replacingOccurrences(of: "+", with: " ")
                guard let source = PercentEncoding.decode(raw[...]), !source.isEmpty else {
                    throw .badRequest("the source in ?source= is empty or not valid percent-encoded UTF-8")
                }
                return source
            }
        }
        guard !request.body.isEmpty else {
            throw .badRequest("name the source to purge: POST /admin/purge?source=SOURCE, or a JSON body {\"source\": \"…\"}")
        }
        struct Body: Decodable { var source: String }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(request.body)), !body.source.isEmpty else {
            throw .badRequest("the body is not JSON of the form {\"source\": \"…\"} with a non-empty source")
        }
        return body.source
    }
}

// MARK: - Purging

extension ImageServer {
    /// Answers `/admin/purge` (see ``AdminEndpoint``).
    func purge(_ request: ImageServerRequest) async throws(ServerFailure) -> ImageServerResponse {
        guard let token = settings.adminToken else {
            throw .notFound("the admin endpoint is off on this server ($DARKROOM_ADMIN_TOKEN turns it on)")
        }
        guard request.method == "POST" else {
            throw ServerFailure(status: 405, message: "method \(request.method) is not allowed on /admin/purge: use POST", allowed: "POST")
        }
        guard AdminEndpoint.isAuthorized(request.authorization, token: token) else {
            throw ServerFailure(status: 401, message: "the admin endpoint needs Authorization: Bearer with the server's token")
        }
        let source = try AdminEndpoint.source(of: request)
        try checkAllowed(source)
        let purged: (sourceKey: String, removed: [(layer: String, removed: Result<Int, any Error>)])
        do {
            purged = try await pipeline.removeCachedImages(for: source)
        } catch {
            throw ServerFailure(error)
        }
        var layers: [String: AdminEndpoint.PurgeReport.Layer] = [:]
        for (layer, result) in purged.removed {
            switch result {
            case let .success(count): layers[layer] = .init(removed: count)
            case let .failure(error): layers[layer] = .init(error: String(describing: error))
            }
        }
        let report = AdminEndpoint.PurgeReport(source: source, key: purged.sourceKey, layers: layers)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body: [UInt8] = (try? encoder.encode(report)).map { [UInt8]($0) + [10] } ?? []
        return .text(body, type: "application/json", isHead: false)
    }
}
