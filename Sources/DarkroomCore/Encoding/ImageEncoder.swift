// MARK: - ImageEncoder

/// Turns an ``Image`` into bytes of one format.
///
/// Contract:
/// - `options.format` equals the encoder's ``format``; options that do not apply to the
///   format are ignored; out-of-range values are errors (``EncodeOptions/validate()``).
/// - Formats without alpha (JPEG, BMP) composite translucent pixels over white.
/// - **Threading.** Stateless; may run on many threads at once. Synchronous CPU work.
/// - **Errors.** Throws ``DarkroomError/encodeFailed(_:detail:)`` naming the format.
///
/// ```swift
/// let jpeg = try encoder.encode(image, options: EncodeOptions(format: .jpeg, quality: 80))
/// ```
public protocol ImageEncoder: Sendable {
    /// A short name for logs, e.g. `"libgd"`.
    var name: String { get }
    /// The format this encoder writes.
    var format: ImageFormat { get }

    func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8]
}
