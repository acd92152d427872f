import Darkroom
import DarkroomCore
import DarkroomFilters
import FoundationEssentials
import DarkroomSources

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Conversion

/// One file-to-file conversion: decode upright, optionally fit inside a box
/// (with shrink-on-load), encode, and write atomically. What `darkroom convert` runs.
/// An input or output of `-` is standard input or output (the output's format then comes
/// from ``format``).
///
/// ```swift
/// var conversion = Conversion(input: "cat.jpg", output: "cat.webp")
/// conversion.maxSize = PixelSize(width: 512, height: 512)
/// let result = try conversion.run(using: .standard)
/// print(result.outputSize) // e.g. 512x341
/// ```
public struct Conversion: Sendable {
    /// The path of the file to read, or `-` for standard input.
    public var input: String
    /// The path to write (atomically), or `-` for standard output.
    public var output: String
    /// The output format; `nil` = from the output file's extension.
    public var format: ImageFormat?
    /// Encoder settings other than the format (quality, progressive, level, lossless, speed).
    public var quality: Int?
    /// JPEG: write a progressive JPEG.
    public var progressive = false
    /// JPEG: compute optimal Huffman tables (smaller, slower); `nil` = the encoder's default (on).
    public var optimizesCoding: Bool?
    /// PNG: zlib compression level 0…9; `nil` = 6.
    public var compressionLevel: Int?
    /// WebP: lossless coding (``quality`` is then ignored).
    public var lossless = false
    /// AVIF: encoder speed 0 (slowest, smallest) … 10 (fastest); `nil` = 6.
    public var speed: Int?
    /// Keep the source's EXIF (orientation reset), XMP and ICC profile (when still valid) in
    /// JPEG, PNG and WebP output (`--keep-metadata`); default `false`, stripped.
    public var keepsMetadata = false
    /// Fit the upright image inside this box, keeping its aspect ratio; never enlarges.
    public var maxSize: PixelSize?
    /// Decode at a reduced scale when fitting (JPEG DCT scaling). Turn off only to measure it.
    public var shrinkOnLoad = true
    /// The resampling kernel used to fit.
    public var kernel: ResamplingKernel = .lanczos3
    /// Orientation, limits and colour-profile handling for the decode (its size hint comes
    /// from ``maxSize``).
    public var decoding = DecodeOptions()

    /// The input or output that names a standard stream.
    public static let standardStream = "-"

    /// Creates a conversion of the file `input` into the file `output` (`-` for a standard
    /// stream), with the default settings.
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    // MARK: - Result

    /// What a conversion did.
    public struct Result: Sendable, Hashable {
        /// The input's header, probed before decoding: its format, stored size, orientation and so on.
        public var inputHeader: ImageHeader
        /// The size the decoder produced (smaller than the input with shrink-on-load).
        public var decodedSize: PixelSize
        /// The size of the written image, after any fitting to ``Conversion/maxSize``.
        public var outputSize: PixelSize
        /// The format the output was encoded in.
        public var outputFormat: ImageFormat
        /// The size of the encoded output, in bytes.
        public var outputBytes: Int
        /// Set when the input was animated and the output format cannot animate, so its first
        /// frame was written.
        public var flattenedAnimation: AnimationFlattening? = nil
    }

    // MARK: - Running

    /// The output format: ``format`` if set, else the output file's extension.
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` when neither names one.
    public func resolvedFormat() throws -> ImageFormat {
        if let format { return format }
        if output == Self.standardStream {
            throw DarkroomError.invalidArgument(
                name: "--format", value: "(none)", expected: "an output format when OUTPUT is - (standard output), e.g. --format png")
        }
        let ext = URL(fileURLWithPath: output).pathExtension
        var status = stat()
        if stat(output, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw DarkroomError.io(path: output, detail: "is a folder, not a file")
        }
        guard let byExtension = ImageFormat(fileExtension: ext) else {
            throw DarkroomError.invalidArgument(
                name: "output extension", value: ext.isEmpty ? "(none)" : "." + ext,
                expected: "a known image extension (\(knownExtensions)) or --format")
        }
        return byExtension
    }

    /// The encoder options this conversion writes with.
    public func encodeOptions() throws -> EncodeOptions {
        EncodeOptions(
            format: try resolvedFormat(), quality: quality, progressive: progressive,
            compressionLevel: compressionLevel, lossless: lossless, speed: speed, keepsMetadata: keepsMetadata,
            optimizesCoding: optimizesCoding)
    }

    /// Reads, converts and writes. Nothing is written when anything fails.
    public func run(using registry: Registry) throws -> Result {
        let options = try encodeOptions()
        try options.validate()
        _ = try registry.encoder(for: options.format)  // fail before decoding if unwritable
        let bytes = input == Self.standardStream
            ? try FileBytes.readStandardInput(maxBytes: decoding.limits.maxInputBytes)
            : try FileBytes.read(input, maxBytes: decoding.limits.maxInputBytes)
        let (header, encoded, decodedSize, outputSize, flattened) = try convertReporting(bytes, options: options, registry: registry)
        if output == Self.standardStream {
            try FileBytes.writeStandardOutput(encoded)
        } else {
            try AtomicFileWriter.write(encoded, to: output)
        }
        return Result(
            inputHeader: header, decodedSize: decodedSize, outputSize: outputSize,
            outputFormat: options.format, outputBytes: encoded.count, flattenedAnimation: flattened)
    }

    /// Converts in memory: decode (with a size hint when fitting), fit, encode.
    public func convert(
        _ bytes: [UInt8], options: EncodeOptions, registry: Registry
    ) throws -> (header: ImageHeader, bytes: [UInt8], decodedSize: PixelSize, outputSize: PixelSize) {
        let converted = try convertReporting(bytes, options: options, registry: registry)
        return (converted.header, converted.bytes, converted.decodedSize, converted.outputSize)
    }

    /// ``convert(_:options:registry:)``, also saying whether an animation was written as its first frame.
    func convertReporting(
        _ bytes: [UInt8], options: EncodeOptions, registry: Registry
    ) throws -> (
        header: ImageHeader, bytes: [UInt8], decodedSize: PixelSize, outputSize: PixelSize, flattened: AnimationFlattening?
    ) {
        try decoding.limits.check(byteCount: bytes.count)
        let header = try ImageProbe.probe(bytes)
        try decoding.limits.check(header)
        let upright = decoding.appliesOrientation ? header.uprightSize : header.size
        var target = maxSize.map { upright.fitting(within: $0, allowUpscaling: false) }
        // What the encoder cannot write is refused before a pixel is decoded.
        try registry.encoder(for: options.format).checkWritable(target ?? upright)
        let hint = target.map { ShrinkOnLoad.hint(forOutput: $0, source: upright) }
        var decodeOptions = decoding
        decodeOptions.sizeHint = shrinkOnLoad ? hint : nil
        let decoder = try registry.decoder(for: header, options: decodeOptions)
        let decoded = try decoder.decode(bytes, header: header, options: decodeOptions)
        if let maxSize, !Self.headerDescribes(decoded.size, upright: upright, hint: decodeOptions.sizeHint) {
            // The header's size was not the picture's (an AVIF/HEIF 'ispe' that lies): fit
            // what was decoded, so the output is the same picture with and without --max-size.
            target = decoded.size.fitting(within: maxSize, allowUpscaling: false)
        }
        var image = decoded
        if let target, image.size != target {
            image = try image.mappingFrames { try Resampler.resize($0, to: target, kernel: kernel) }
        }
        let metadata = options.keepsMetadata ? registry.metadata(of: bytes, header: header, decoding: decoding) : .none
        let encoded = try registry.encode(image, options: options, metadata: metadata)
        let flattened = AnimationFlattening(image: image, encoder: try registry.encoder(for: options.format))
        return (header, encoded, decoded.size, image.size, flattened)
    }

    /// Whether a decode of `decoded` size is the header's picture: its upright size, or a
    /// shrink-on-load reduction of it that still covers the hint.
    static func headerDescribes(_ decoded: PixelSize, upright: PixelSize, hint: PixelSize?) -> Bool {
        if decoded == upright { return true }
        guard let hint else { return false }
        return decoded.width <= upright.width && decoded.height <= upright.height
            && decoded.width >= hint.width && decoded.height >= hint.height
    }

    private var knownExtensions: String {
        ImageFormat.allCases.map { "." + $0.preferredFileExtension }.joined(separator: ", ")
    }
}
