import CCurlShims
import DarkroomCore

// MARK: - CurlLibrary

/// libcurl, loaded on first use.
///
/// CCurlShims does not link libcurl: the first URL parsed `dlopen`s `libcurl.so.4` (with its
/// TLS, Kerberos, LDAP, SSH … libraries), so programs that never fetch a URL never pay for
/// mapping them. When libcurl is not installed, every ``HTTPSource`` call that needs it throws
/// ``DarkroomError/fetchFailed(url:status:reason:kind:)`` with an install hint.
///
/// ```swift
/// try CurlLibrary.require(url: "https://example.com/a.jpg")
/// ```
enum CurlLibrary {
    /// Why libcurl cannot be used here, or `nil` when it is loaded (asked once; loads it).
    static let unavailableReason: String? = {
        var why = [CChar](repeating: 0, count: 512)
        guard ccurl_available(&why, why.count) == 0 else { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Throws when libcurl cannot be loaded, naming `url` and how to install libcurl.
    static func require(url: String) throws {
        guard let why = unavailableReason else { return }
        throw missing(url: url, why: why)
    }

    /// The error for `url` when libcurl could not be loaded because of `why`.
    static func missing(url: String, why: String) -> DarkroomError {
        .fetchFailed(
            url: url, status: nil,
            reason: "libcurl (\(CCURL_LIBCURL_SONAME)) is not installed: apt-get install libcurl4 (\(why))")
    }
}
