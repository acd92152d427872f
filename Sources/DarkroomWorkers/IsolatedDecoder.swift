import Darkroom
import DarkroomCore

// MARK: - IsolatedDecoder

/// A decoder that sends the formats it is given to a ``DecodeWorkerPool`` and answers every
/// other question (can it decode this, at what size, what does it cost) as the in-process
/// decoder of `registry` would, so a registry with it in front renders exactly as before —
/// only the decoding happens in a worker. Metadata is read in process (Darkroom's own readers).
///
/// ```swift
/// var registry = Registry.standard
/// registry = registry.isolatingDecoders(of: [.avif, .heif, .tiff], in: pool)
/// ```
public struct IsolatedDecoder: ImageDecoder {
    /// `isolated`.
    public let name = "isolated"
    /// The pool that decodes.
    public let pool: DecodeWorkerPool
    /// The formats it decodes in the pool.
    public let formats: Set<ImageFormat>
    /// The registry whose decoders the workers run (and whose answers this one gives).
    public let registry: Registry

    /// A decoder sending `formats` to `pool`, answering as `registry`'s decoders.
    public init(pool: DecodeWorkerPool, formats: Set<ImageFormat>, registry: Registry) {
        self.pool = pool
        self.formats = formats
        self.registry = registry
    }

    private func inner(_ header: ImageHeader, _ options: DecodeOptions) -> (any ImageDecoder)? {
        try? registry.decoder(for: header, options: options)
    }

    /// Whether `header`'s format is one of ``formats`` and the registry has a decoder for it.
    public func canDecode(_ header: ImageHeader, options: DecodeOptions) -> Bool {
        formats.contains(header.format) && inner(header, options) != nil
    }

    /// Decodes in a worker of ``pool``.
    public func decode(_ bytes: [UInt8], header: ImageHeader, options: DecodeOptions) throws -> Image {
        try pool.decode(bytes, header: header, options: options)
    }

    /// The in-process decoder's canonical size hint.
    public func canonicalSizeHint(for header: ImageHeader, options: DecodeOptions) -> PixelSize? {
        inner(header, options)?.canonicalSizeHint(for: header, options: options)
    }

    /// The in-process decoder's decoded size.
    public func decodedSize(for header: ImageHeader, options: DecodeOptions) -> PixelSize {
        inner(header, options)?.decodedSize(for: header, options: options) ?? header.size
    }

    /// The in-process decoder's cost estimate.
    public func estimatedDecodeCost(for header: ImageHeader, byteCount: Int, options: DecodeOptions) -> Double {
        inner(header, options)?.estimatedDecodeCost(for: header, byteCount: byteCount, options: options) ?? 0
    }

    /// The in-process decoder's metadata reading (Darkroom's own readers, no C library).
    public func metadata(in bytes: [UInt8], header: ImageHeader) -> ImageMetadata {
        inner(header, DecodeOptions())?.metadata(in: bytes, header: header) ?? ImageMetadata()
    }
}

// MARK: - Registry

extension Registry {
    /// This registry with an ``IsolatedDecoder`` asked first for `formats`: they are decoded in
    /// `pool`'s workers, by this registry's decoders.
    ///
    /// ```swift
    /// let isolated = Registry.standard.isolatingDecoders(of: [.avif, .heif, .tiff], in: pool)
    /// ```
    public func isolatingDecoders(of formats: Set<ImageFormat>, in pool: DecodeWorkerPool) -> Registry {
        var isolated = self
        isolated.prepend(decoder: IsolatedDecoder(pool: pool, formats: formats, registry: self))
        return isolated
    }
}
