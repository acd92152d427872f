import Darkroom
import DarkroomConfig
import DarkroomCore

// MARK: - What each fuzz target does with one input

/// The bodies of the fuzz targets. Each takes libFuzzer's bytes, runs one part of Darkroom that
/// reads untrusted input, and ignores the errors it is allowed to throw: a crash, a trap, a hang
/// or an AddressSanitizer report is the finding.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.probe(data, size) }
/// ```
public enum FuzzInputs {
    /// Small limits (a quarter megapixel, 1 MiB), so a fuzzer spends its time in parsers, not in
    /// decoding large pictures: with AddressSanitizer a 4-megapixel JPEG took 0.2 s.
    static let limits = DecodeLimits(maxInputBytes: 1 << 20, maxPixels: 1 << 18)

    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The header probe, the details `probe` prints, the metadata readers and the inflater.
    public static func probe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = bytes(data, size)
        if let header = try? ImageProbe.probe(input) {
            _ = try? ImageDetails(input)
            let metadata = ImageMetadata(reading: input, format: header.format)
            _ = metadata.kept(afterDecodingWith: DecodeOptions())
            if let exif = metadata.exif { _ = ExifOrientation.resettingToUp(exif) }
        }
        _ = Inflate.zlib(input, maxOutput: 1 << 20)
        _ = XMPOrientation.read(input)
        return 0
    }

    /// Decodes `data` when it probes as one of `formats`, at full size (strictly, and again at
    /// `fail-on = none` when that failed: the partial-image paths) and with a size hint at `none`
    /// (shrink-on-load paths), then reads its metadata as a render keeping it would.
    public static func decode(_ data: UnsafePointer<UInt8>?, _ size: Int, formats: Set<ImageFormat>) -> Int32 {
        let input = bytes(data, size)
        guard let header = try? ImageProbe.probe(input), formats.contains(header.format) else { return -1 }
        let registry = Registry.standard
        var options = DecodeOptions(limits: limits)
        if (try? registry.decode(input, options: options)) == nil {
            _ = try? registry.decode(input, options: DecodeOptions(limits: limits, failOn: .none))
        }
        options.failOn = .none
        options.sizeHint = PixelSize(width: 16, height: 16)
        if let (decoder, hinted) = try? registry.canonicalDecode(header, sizeHint: options.sizeHint, options: options) {
            _ = try? decoder.decode(input, header: header, options: hinted)
        }
        _ = registry.metadata(of: input, header: header, decoding: options)
        return 0
    }

    /// The filters.d loader on one file's text, with the standard filters.
    public static func config(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        let configuration = ConfigLoader.load(sources: [(name: "20-fuzz.toml", text: text)], filters: Registry.standard.filters)
        _ = configuration.diagnostics.map(\.description)
        return 0
    }

    /// The identifier syntax: a chain with encoder settings, as `render --filter` and the
    /// server's signed chains parse it.
    public static func identifier(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        if let (filters, encoding) = try? Registry.standard.chain(parsing: text) {
            _ = FilterChain(filters).identifier
            _ = encoding?.identifier
        }
        _ = try? VariantEncoding(parsing: text)
        return 0
    }
}
