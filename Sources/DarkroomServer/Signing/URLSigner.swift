import Crypto
import DarkroomCore
import FoundationEssentials

// MARK: - URLSigner

/// Signs and checks image paths, so that only URLs your application made are rendered: the
/// server's answer to anyone asking it to resize arbitrary images at arbitrary sizes.
///
/// The scheme is imgproxy's: the signature is the unpadded base64url HMAC-SHA256, keyed with
/// `key`, of `salt` followed by the path after the signature segment (`/VARIANT/SOURCE`, as
/// sent, without the query). Key and salt are given in hex, as imgproxy takes them.
///
/// ```swift
/// let signer = try URLSigner(hexKey: "943b421c9eb07c83", hexSalt: "520f986b998545b4")
/// let path = "/thumbnail/photos/cat.jpg"
/// let url = "https://img.example.com/\(signer.signature(for: path))\(path)"
/// signer.isValid(signature: signer.signature(for: path), for: path)   // true
/// ```
public struct URLSigner: Sendable {
    // Raw bytes, not a `SymmetricKey` (which is not `Sendable`); a key is made per signature.
    private let key: [UInt8]
    private let salt: [UInt8]

    /// A signer over raw key and salt bytes.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for an empty key.
    public init(key: [UInt8], salt: [UInt8]) throws {
        guard !key.isEmpty else {
            throw DarkroomError.invalidArgument(name: "signing key", value: "(empty)", expected: "at least one byte")
        }
        self.key = key
        self.salt = salt
    }

    /// A signer over hex-encoded key and salt (`openssl rand -hex 32` makes one).
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` naming the one that
    ///   is not hex (its value is not repeated: it is a secret).
    public init(hexKey: String, hexSalt: String) throws {
        guard let key = Self.bytes(hex: hexKey), !key.isEmpty else {
            throw DarkroomError.invalidArgument(
                name: "signing key", value: "(\(hexKey.count) characters)", expected: "an even number of hex digits, at least 2")
        }
        guard let salt = Self.bytes(hex: hexSalt) else {
            throw DarkroomError.invalidArgument(
                name: "signing salt", value: "(\(hexSalt.count) characters)", expected: "an even number of hex digits")
        }
        try self.init(key: key, salt: salt)
    }

    // MARK: - Signatures

    /// The signature of `path` (`/VARIANT/SOURCE`, starting with `/`).
    public func signature(for path: String) -> String {
        var authenticator = HMAC<SHA256>(key: SymmetricKey(data: key))
        authenticator.update(data: salt)
        authenticator.update(data: Array(path.utf8))
        return Self.base64URL(Array(authenticator.finalize()))
    }

    /// Whether `signature` is `path`'s, compared in constant time.
    public func isValid(signature: Substring, for path: Substring) -> Bool {
        let expected = Array(self.signature(for: String(path)).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// ``isValid(signature:for:)`` for `String`s.
    public func isValid(signature: String, for path: String) -> Bool {
        isValid(signature: signature[...], for: path[...])
    }

    // MARK: - Paths

    /// The whole signed path `/SIGNATURE/VARIANT/SOURCE` of a configured variant: the variant
    /// and the source percent-encoded (a URL source whole, slashes included; a file path
    /// keeping its slashes), then signed.
    ///
    /// ```swift
    /// signer.signedPath(variant: "thumbnail", source: "https://example.com/cat.jpg")
    /// // "/oKfUtW…/thumbnail/https%3A%2F%2Fexample.com%2Fcat.jpg"
    /// ```
    public func signedPath(variant: String, source: String) -> String {
        sign("/" + PercentEncoding.encode(variant, keepingSlashes: false) + "/" + Self.encodedSource(source))
    }

    /// The whole signed path `/SIGNATURE/chain:IDENTIFIER/SOURCE` of an ad-hoc chain, given in
    /// the identifier syntax `darkroom list` prints (filters joined by `|`, optionally `>` and
    /// encoder settings). `|`, `>` and `%` are escaped; `(`, `)`, `,`, `=` and `:` stay readable.
    ///
    /// ```swift
    /// signer.signedPath(chain: "aspect-fit(height=300,width=300)|sharpen>webp(quality=75)", source: "photos/cat.jpg")
    /// // "/Xb3n…/chain:aspect-fit(height=300,width=300)%7Csharpen%3Ewebp(quality=75)/photos/cat.jpg"
    /// ```
    public func signedPath(chain identifier: String, source: String) -> String {
        sign("/" + Self.encodedChain("chain:" + identifier) + "/" + Self.encodedSource(source))
    }

    private func sign(_ path: String) -> String { "/" + signature(for: path) + path }

    private static func encodedSource(_ source: String) -> String {
        PercentEncoding.encode(source, keepingSlashes: !source.contains("://"))
    }

    /// `text` escaped as ``PercentEncoding/encode(_:keepingSlashes:)`` does, but keeping the
    /// identifier syntax's `(`, `)`, `,`, `=` and `:`, which a path segment may hold as they are.
    static func encodedChain(_ text: String) -> String {
        var out = ""
        for character in text {
            if "(),=:".contains(character) {
                out.append(character)
            } else {
                out += PercentEncoding.encode(String(character), keepingSlashes: false)
            }
        }
        return out
    }

    // MARK: - Encodings

    /// Unpadded base64url (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = String(text.unicodeScalars.compactMap { scalar -> Character? in
            switch scalar {
            case "+": return "-"
            case "/": return "_"
            case "=": return nil
            default: return Character(scalar)
            }
        })
        return text
    }

    /// The bytes of an even-length hex string; `nil` for anything else.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = PercentEncoding.hexValue(digits[index]), let low = PercentEncoding.hexValue(digits[index + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
