import CCurlShims
import DarkroomCore

// MARK: - TransferOutcome

/// What one finished transfer means for the load: go on with the response, retry, or fail
/// with a message that reads well after the URL (`darkroom: error: URL: <reason>`).
enum TransferOutcome {
    /// A response to use (2xx, 3xx, 304).
    case response(CurlResponse)
    /// A transient failure: try again unless out of attempts. `retryAfter` is the server's
    /// `Retry-After` in seconds, if it sent one.
    case retry(DarkroomError, retryAfter: Double?)
    /// A failure that another attempt would not fix.
    case failure(DarkroomError)

    /// Classifies `response` to `url` (the location named in errors) under `settings`.
    static func classify(_ response: CurlResponse, url: String, settings: HTTPSourceSettings) -> TransferOutcome {
        func failed(_ reason: String, status: Int? = nil, kind: FetchFailureKind) -> DarkroomError {
            .fetchFailed(url: url, status: status, reason: reason, kind: kind)
        }
        // A body refused for its content type: the head is complete, and the load reports
        // the type (HTTPSource checks it on every response).
        if response.refusedContentType { return .response(response) }
        if response.code != CURLE_OK.rawValue {
            return transportFailure(response, settings: settings, failed: { failed($0, kind: $1) })
        }
        let status = response.status
        switch status {
        case 200..<400:
            return .response(response)
        case 429, 500..<600:
            let error = failed("HTTP \(response.head.statusDescription)\(storeError(response))", status: status, kind: .httpStatus)
            return .retry(error, retryAfter: RetryAfter.seconds(response.head["retry-after"]))
        default:
            return .failure(failed("HTTP \(response.head.statusDescription)\(storeError(response))", status: status, kind: .httpStatus))
        }
    }

    /// ` (Code: Message)` from an S3-style XML error body (`<Error><Code>…</Code><Message>…`),
    /// which object stores and the CDNs in front of them send; `""` for any other body.
    static func storeError(_ response: CurlResponse) -> String {
        guard response.body.count <= 64 * 1024, response.head["content-type"]?.lowercased().contains("xml") == true else { return "" }
        let text = String(decoding: response.body, as: UTF8.self)
        func element(_ name: String) -> String? {
            guard let open = text.firstRange(of: "<\(name)>"), let close = text[open.upperBound...].firstRange(of: "</\(name)>")
            else { return nil }
            let value = text[open.upperBound..<close.lowerBound].filter { !$0.isNewline }
            return value.isEmpty ? nil : String(value.prefix(200))
        }
        guard let code = element("Code") else { return "" }
        return element("Message").map { " (\(code): \($0))" } ?? " (\(code))"
    }

    // MARK: - Transport failures

    private static func transportFailure(
        _ response: CurlResponse, settings: HTTPSourceSettings, failed: (String, FetchFailureKind) -> DarkroomError
    ) -> TransferOutcome {
        let code = CURLcode(rawValue: response.code)
        let detail = response.errorText.isEmpty
            ? String(cString: ccurl_easy_strerror(code)) : response.errorText
        if let (address, kind) = response.refusedAddress, code == CURLE_COULDNT_CONNECT {
            return .failure(failed(
                "\(address) is \(addressKind(kind)) address; private networks are refused "
                    + "(set allow-private-networks = true in [sources.http])", .refused))
        }
        if response.exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            return .failure(failed("response is larger than the limit of \(settings.maxResponseBytes) bytes", .tooLarge))
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            if detail.lowercased().contains("too slow") {
                return .failure(failed(
                    "transfer too slow: less than \(settings.lowSpeedLimit) bytes/s for "
                        + "\(seconds(settings.lowSpeedTime)) (low-speed limit)", .timedOut))
            }
            if !response.connected && settings.connectTimeout <= settings.totalTimeout {
                return .retry(failed("timed out after \(seconds(settings.connectTimeout)) (connect timeout)", .timedOut), retryAfter: nil)
            }
            return .failure(failed("timed out after \(seconds(settings.totalTimeout)) (total timeout)", .timedOut))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failure(failed("cannot resolve host: \(detail)", .connection))
        case CURLE_COULDNT_CONNECT:
            return .retry(failed("cannot connect: \(detail)", .connection), retryAfter: nil)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR:
            if response.contentLength > 0 && Int64(response.body.count) < response.contentLength {
                return .retry(failed(
                    "connection cut after \(response.body.count) of \(response.contentLength) bytes", .connection), retryAfter: nil)
            }
            return .retry(failed("connection cut: \(detail)", .connection), retryAfter: nil)
        case CURLE_GOT_NOTHING:
            return .retry(failed("the server closed the connection without answering", .connection), retryAfter: nil)
        case CURLE_SEND_ERROR:
            return .retry(failed("connection lost while sending the request: \(detail)", .connection), retryAfter: nil)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Schemes are checked before every hop, so this is a server not speaking HTTP
            // ("Received HTTP/0.9 when not allowed").
            return .failure(failed("the server did not answer in HTTP (\(detail))", .invalidResponse))
        case CURLE_TOO_MANY_REDIRECTS:
            return .failure(failed("too many redirects (more than \(settings.maxRedirects))", .invalidResponse))
        default:
            if detail.lowercased().contains("ssl") || detail.lowercased().contains("certificate") {
                return .failure(failed("TLS failed: \(detail)", .connection))
            }
            return .failure(failed(detail, .other))
        }
    }

    /// "a loopback", "a private", … for an address the private-network rule refuses; `nil`
    /// for a public or unparsable one.
    static func privateAddressKind(_ address: String) -> String? {
        let kind = ccurl_classify_address(address)
        return kind <= 0 ? nil : addressKind(kind)
    }

    private static func addressKind(_ kind: Int32) -> String {
        switch UInt32(kind) {
        case CCURL_ADDRESS_LOOPBACK.rawValue: "a loopback"
        case CCURL_ADDRESS_LINK_LOCAL.rawValue: "a link-local"
        case CCURL_ADDRESS_PRIVATE.rawValue: "a private"
        case CCURL_ADDRESS_UNSPECIFIED.rawValue: "an unspecified"
        case CCURL_ADDRESS_SHARED.rawValue: "a shared (carrier-grade NAT)"
        case CCURL_ADDRESS_MULTICAST.rawValue: "a multicast"
        case CCURL_ADDRESS_RESERVED.rawValue: "a reserved (benchmarking, documentation or future use)"
        case CCURL_ADDRESS_TRANSLATED.rawValue: "an IPv4-translating (NAT64, 6to4 or Teredo)"
        default: "a non-public"
        }
    }

    /// "30 s", "1.5 s", "200 ms".
    static func seconds(_ value: Double) -> String {
        if value < 1 { return "\(Int((value * 1000).rounded())) ms" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
