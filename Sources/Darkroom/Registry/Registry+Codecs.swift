import DarkroomCore

// MARK: - Decoding and encoding through the registry

extension Registry {
    /// Probes, checks limits, picks a decoder and decodes.
    ///
    /// ```swift
    /// let image = try Registry.standard.decode(bytes)   // upright RGBA8
    /// ```
    /// - Throws: `DarkroomError` — limits are checked from the header before any
    ///   pixel memory is allocated.
    public func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> Image {
        try decodeWithHeader(bytes, options: options).image
    }

    /// Like ``decode(_:options:)``, also returning the probed header.
    public func decodeWithHeader(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> (header: ImageHeader, image: Image) {
        try options.limits.check(byteCount: bytes.count)
        let header = try ImageProbe.probe(bytes)
        try options.limits.check(header)
        let decoder = try decoder(for: header, options: options)
        return (header, try decoder.decode(bytes, header: header, options: options))
    }

    /// The decoder that reads `header` and the options to decode with: `base` (orientation,
    /// limits, colour handling) with `sizeHint` in the decoder's canonical form
    /// (`ImageDecoder/canonicalSizeHint(for:options:)`), so that every render asking for the
    /// same scale decodes the same pixels and can share them.
    ///
    /// ```swift
    /// let (decoder, options) = try registry.canonicalDecode(header, sizeHint: PixelSize(width: 448, height: 448))
    /// let image = try decoder.decode(bytes, header: header, options: options)
    /// ```
    /// - Throws: `DarkroomError/unsupportedFormat(_:reason:)` when no decoder reads it.
    public func canonicalDecode(
        _ header: ImageHeader, sizeHint: PixelSize?, options base: DecodeOptions = DecodeOptions()
    ) throws -> (decoder: any ImageDecoder, options: DecodeOptions) {
        var options = base
        options.sizeHint = sizeHint
        let decoder = try decoder(for: header, options: options)
        options.sizeHint = sizeHint == nil ? nil : decoder.canonicalSizeHint(for: header, options: options)
        return (decoder, options)
    }

    /// Validates the options, picks the encoder for `options.format`, and encodes.
    ///
    /// ```swift
    /// let webp = try Registry.standard.encode(image, options: EncodeOptions(format: .webp, quality: 75))
    /// ```
    public func encode(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        try options.validate()
        let encoder = try encoder(for: options.format)
        try encoder.checkWritable(image.size)
        return try encoder.encode(image, options: options)
    }

    /// Like ``encode(_:options:)``, embedding `metadata` when `options.keepsMetadata` is set and
    /// the encoder writes metadata (JPEG, PNG, WebP); otherwise the output is stripped.
    ///
    /// ```swift
    /// let kept = registry.metadata(of: bytes, header: header, decoding: DecodeOptions())
    /// let jpeg = try registry.encode(image, options: EncodeOptions(format: .jpeg, keepsMetadata: true), metadata: kept)
    /// ```
    public func encode(_ image: Image, options: EncodeOptions, metadata: ImageMetadata) throws -> [UInt8] {
        guard options.keepsMetadata, !metadata.isEmpty else { return try encode(image, options: options) }
        try options.validate()
        let encoder = try encoder(for: options.format)
        try encoder.checkWritable(image.size)
        return try encoder.encode(image, options: options, metadata: metadata)
    }

    /// The metadata an output of `bytes` decoded with `decoding` keeps
    /// (`ImageMetadata.kept(afterDecodingWith:)`), read by the decoder that reads `header`;
    /// empty when no decoder does.
    ///
    /// ```swift
    /// let kept = registry.metadata(of: bytes, header: try ImageProbe.probe(bytes), decoding: DecodeOptions())
    /// ```
    public func metadata(of bytes: [UInt8], header: ImageHeader, decoding: DecodeOptions) -> ImageMetadata {
        guard let decoder = try? decoder(for: header, options: decoding) else { return .none }
        return decoder.metadata(in: bytes, header: header).kept(afterDecodingWith: decoding)
    }
}
