// MARK: - HTTPResponseHead

/// The status line and header fields of one HTTP response, as received.
///
/// ```swift
/// let head = HTTPResponseHead(parsing: "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n")
/// head.reasonPhrase           // "Not Found"
/// head["content-type"]        // "text/html"
/// ```
struct HTTPResponseHead: Sendable, Hashable {
    /// The status code of the status line (0 when there was none).
    var status = 0
    /// The reason phrase of the status line ("" for HTTP/2, which has none).
    var reasonPhrase = ""
    /// Fields by lower-case name; repeated fields joined with ", ".
    var fields: [String: String] = [:]

    init(parsing text: String) {
        for rawLine in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            let line = String(rawLine)
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                reasonPhrase = parts.count > 2 ? parts[2].trimming(" \t") : ""
                fields = [:]
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimming(" \t").lowercased()
            let value = line[line.index(after: colon)...].trimming(" \t")
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
    }

    subscript(name: String) -> String? { fields[name.lowercased()] }

    /// "404 Not Found": the status with the server's reason phrase, or the standard one.
    var statusDescription: String {
        let phrase = reasonPhrase.isEmpty ? HTTPStatusPhrase.standard(status) : reasonPhrase
        return phrase.isEmpty ? "\(status)" : "\(status) \(phrase)"
    }
}

// MARK: - Cache-Control

/// The parts of `Cache-Control` a source cares about.
///
/// ```swift
/// CacheControl(parsing: "public, max-age=600, s-maxage=3600").maxAge  // 3600
/// CacheControl(parsing: "no-cache").maxAge                           // 0
/// ```
struct CacheControl: Sendable, Hashable {
    /// Seconds the response stays fresh: `s-maxage` (Darkroom is a shared cache) over
    /// `max-age`; 0 for `no-cache` (reuse only after revalidating); `nil` when not given.
    var maxAge: Int?
    /// `no-store`: do not keep the bytes.
    var noStore = false
    /// `private`: for the user's own cache only, not a shared one (as Darkroom is).
    var isPrivate = false

    init(parsing value: String?) {
        guard let value else { return }
        var maxAge: Int?
        var sharedMaxAge: Int?
        var noCache = false
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimming(" \t").lowercased()
            let argument = parts.count > 1 ? parts[1].trimming(" \t\"") : nil
            switch name {
            case "max-age": maxAge = argument.flatMap(Self.seconds)
            case "s-maxage": sharedMaxAge = argument.flatMap(Self.seconds)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            default: break
            }
        }
        self.maxAge = noCache ? 0 : sharedMaxAge ?? maxAge
    }

    private static func seconds(_ text: String) -> Int? {
        guard let number = Int(text), number >= 0 else { return nil }
        return number
    }
}

// MARK: - Helpers

extension StringProtocol {
    func trimming(_ set: String) -> String {
        let isTrimmed: (Character) -> Bool = { set.contains($0) }
        return String(drop(while: isTrimmed).reversed().drop(while: isTrimmed).reversed())
    }
}

/// Standard reason phrases, for HTTP/2 answers (which carry none).
enum HTTPStatusPhrase {
    static func standard(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
