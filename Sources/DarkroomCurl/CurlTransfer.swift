import CCurlShims
import DarkroomCore

// MARK: - CurlRequest

/// One HTTP GET as libcurl will perform it (no redirect following: ``HTTPSource`` follows
/// redirects itself, so that every hop's host is checked and gets its own credentials).
struct CurlRequest: Sendable {
    var url: String
    /// Header lines, `"Name: value"`.
    var headerLines: [String]
    var basicCredentials: (user: String, password: String)?
    /// AWS Signature V4 signing (libcurl's `CURLOPT_AWS_SIGV4`).
    var awsSignature: AWSSignature?
    var settings: HTTPSourceSettings

    struct AWSSignature: Sendable {
        /// `aws:amz:REGION:SERVICE`.
        var provider: String
        var accessKey: String
        var secretKey: String
    }
}

// MARK: - CurlResponse

/// What a finished transfer left: libcurl's result and the response, copied out of C.
struct CurlResponse: Sendable {
    /// libcurl's result code (`CURLE_OK` = 0).
    var code: UInt32
    /// libcurl's error text ("" when none).
    var errorText: String
    /// The HTTP status (0 when no response arrived).
    var status: Int
    /// The header block of the final response, status line first.
    var head: HTTPResponseHead
    var body: [UInt8]
    /// The body passed the byte limit and the transfer was stopped.
    var exceededLimit: Bool
    /// An address the private-network rule refused, and what kind it is.
    var refusedAddress: (address: String, kind: Int32)?
    /// `Location` resolved against the URL, for 3xx answers.
    var redirectURL: String?
    /// Whether a connection was established (to tell connect timeouts from others).
    var connected: Bool
    /// Whether the connection was reused from an earlier transfer.
    var reusedConnection: Bool
    /// The IP address connected to.
    var primaryIP: String
    /// Bytes announced by `Content-Length` (-1 when unknown).
    var contentLength: Int64
    /// The body was refused unread: a 2xx answer whose `Content-Type` the settings do not
    /// accept (``CurlTransfer/ContentTypeCheck``). `code` is then `CURLE_WRITE_ERROR`.
    var refusedContentType: Bool = false
}

// MARK: - CurlTransfer

/// An easy handle with its C buffers, and the continuation waiting for it. Created on the
/// caller's thread; once submitted, only ``CurlEventLoop``'s thread touches the handle.
/// `continuation` is guarded by the loop's lock (see ``CurlEventLoop``).
final class CurlTransfer: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let buffers: OpaquePointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// Kept alive for the C callback that reads it through an unretained pointer.
    private let contentTypeCheck: ContentTypeCheck
    /// Guarded by the owning loop's lock; taken (set to nil) by whoever resumes it.
    var continuation: CheckedContinuation<CurlResponse, any Error>?
    /// Guarded by the owning loop's lock: cancellation was asked for.
    var cancelRequested = false

    init(_ request: CurlRequest) throws {
        guard let easy = ccurl_easy_init() else {
            throw DarkroomError.fetchFailed(url: request.url, status: nil, reason: "libcurl could not create a transfer")
        }
        let settings = request.settings
        guard let buffers = ccurl_transfer_create(
            easy, settings.maxResponseBytes, settings.allowPrivateNetworks ? 1 : 0)
        else {
            ccurl_easy_cleanup(easy)
            throw DarkroomError.fetchFailed(url: request.url, status: nil, reason: "out of memory")
        }
        self.easy = easy
        self.buffers = buffers
        contentTypeCheck = ContentTypeCheck(settings: settings)
        ccurl_transfer_set_head_check(buffers, ContentTypeCheck.refuses, Unmanaged.passUnretained(contentTypeCheck).toOpaque())
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        // No proxy, whatever http_proxy / HTTPS_PROXY / ALL_PROXY say: through a proxy the
        // private-network rule would judge the proxy's address, never the server's.
        set(CURLOPT_PROXY, "")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_HTTPGET, 1)
        set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Transfers started while a connection to the host is still being set up wait to
        // learn whether it speaks HTTP/2 and join it as streams, instead of each opening a
        // connection of its own (on HTTP/1.1 they then open their own as before).
        set(CURLOPT_PIPEWAIT, 1)
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        set(CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.totalTimeout))
        set(CURLOPT_LOW_SPEED_LIMIT, max(0, settings.lowSpeedLimit))
        set(CURLOPT_LOW_SPEED_TIME, Int(settings.lowSpeedTime.rounded(.up)))
        _ = ccurl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, Int64(settings.maxResponseBytes))
        set(CURLOPT_USERAGENT, settings.userAgent)
        if let caFile = settings.caFile { set(CURLOPT_CAINFO, caFile) }
        if let (user, password) = request.basicCredentials {
            set(CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC (a macro Swift cannot import)
            set(CURLOPT_USERNAME, user)
            set(CURLOPT_PASSWORD, password)
        }
        if let signature = request.awsSignature {
            set(CURLOPT_AWS_SIGV4, signature.provider)
            set(CURLOPT_USERNAME, signature.accessKey)
            set(CURLOPT_PASSWORD, signature.secretKey)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in request.headerLines {
            list = ccurl_slist_append(list, line)
        }
        headerList = list
        if let list { _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)) }
    }

    deinit {
        ccurl_easy_cleanup(easy)
        ccurl_transfer_free(buffers)
        ccurl_slist_free_all(headerList)
    }

    // MARK: - Options

    private func set(_ option: CURLoption, _ value: Int) {
        _ = ccurl_easy_setopt_long(easy, option, value)
    }

    private func set(_ option: CURLoption, _ value: String) {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        _ = ccurl_easy_setopt_string(easy, option, value)
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return max(1, Int((seconds * 1000).rounded()))
    }

    // MARK: - Result

    /// Copies the outcome out of the handle and buffers (on the loop thread, after the
    /// transfer left the multi handle).
    func response(code: CURLcode) -> CurlResponse {
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var headerLength = 0
        let headerText = ccurl_transfer_headers(buffers, &headerLength)
        let head = HTTPResponseHead(parsing: headerText.map { String(cString: $0) } ?? "")
        var bodyLength = 0
        let bodyBytes = ccurl_transfer_body(buffers, &bodyLength)
        let body = bodyBytes.map { Array(UnsafeBufferPointer(start: $0, count: bodyLength)) } ?? []
        var kind = CCURL_ADDRESS_PUBLIC
        let refusedText = String(cString: ccurl_transfer_refused_address(buffers, &kind))
        var redirect: UnsafePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
        var primary: UnsafePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &primary)
        // Microseconds until the request could be sent: 0 while still resolving or connecting.
        var pretransfer: Int64 = 0
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer)
        var connects = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var contentLength: Int64 = -1
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &contentLength)
        let primaryIP = primary.map { String(cString: $0) } ?? ""
        return CurlResponse(
            code: code.rawValue,
            errorText: String(cString: ccurl_transfer_error(buffers)),
            status: status,
            head: head,
            body: body,
            exceededLimit: ccurl_transfer_exceeded(buffers) != 0,
            refusedAddress: refusedText.isEmpty ? nil : (refusedText, Int32(kind.rawValue)),
            redirectURL: redirect.map { String(cString: $0) },
            connected: pretransfer > 0 || status > 0,
            reusedConnection: status > 0 && connects == 0,
            primaryIP: primaryIP,
            contentLength: contentLength,
            refusedContentType: ccurl_transfer_head_refused(buffers) != 0)
    }

    // MARK: - Content type, before the body

    /// Refuses the body of a 2xx answer whose `Content-Type` the settings do not accept, as
    /// soon as its first byte arrives: an HTML page or a video is not downloaded in full (up
    /// to `max-bytes`) only to be rejected. Called on the loop thread, from C.
    final class ContentTypeCheck: Sendable {
        let settings: HTTPSourceSettings

        init(settings: HTTPSourceSettings) { self.settings = settings }

        /// Whether `head` (the header block, status line first) refuses the body.
        func refuses(head: HTTPResponseHead) -> Bool {
            guard (200..<300).contains(head.status), let contentType = head["content-type"] else { return false }
            return !settings.accepts(contentType: contentType)
        }

        static let refuses: ccurl_head_check = { context, headers in
            guard let context, let headers else { return 0 }
            let check = Unmanaged<ContentTypeCheck>.fromOpaque(context).takeUnretainedValue()
            return check.refuses(head: HTTPResponseHead(parsing: String(cString: headers))) ? 1 : 0
        }
    }
}
