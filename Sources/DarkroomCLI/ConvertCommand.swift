import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomFilters
import DarkroomSources

// MARK: - darkroom convert

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image upright and encode it, optionally fitted inside a box.",
        discussion: """
            The output format comes from OUTPUT's extension unless --format is given. \
            --max-size fits the image inside WxH keeping its aspect ratio (never enlarging); \
            N means NxN, Wx bounds only the width and xH only the height, as vips' --size. It \
            decodes JPEGs at a reduced DCT scale first (shrink-on-load). The output file is \
            written to a temporary file and renamed, so it is never left half-written. INPUT - \
            reads standard input; -o - writes standard output (with --format), and the summary \
            line goes to standard error.

            Examples:
              darkroom convert photo.jpg -o thumb.webp --max-size 256x256
              darkroom convert photo.jpg -o banner.jpg --max-size 1024x
              darkroom convert scan.tiff -o scan.jpg --quality 90 --progressive
              darkroom convert - -o - --format png < photo.jpg > photo.png
            """
    )

    @Argument(help: "The input image file (- for standard input).")
    var input: String

    @Option(name: .shortAndLong, help: "The output file (- for standard output).")
    var output: String

    @Option(help: "Output format: \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: String?

    @Option(parsing: .unconditional, help: "Lossy quality 1…100 (JPEG, WebP, AVIF).")
    var quality: Int?

    @Option(name: .customLong("max-size"), parsing: .unconditional, help: ArgumentHelp("Fit inside WxH (or N, Wx, xH), keeping aspect ratio.", valueName: "WxH"))
    var maxSize: String?

    @Flag(help: "Write a progressive JPEG.")
    var progressive = false

    @Flag(name: .customLong("no-optimize"), help: "JPEG: skip the optimal Huffman tables (one pass, as libvips does by default; faster, a few percent larger).")
    var noOptimize = false

    @Option(parsing: .unconditional, help: "PNG compression level 0…9.")
    var compression: Int?

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(parsing: .unconditional, help: "AVIF encoder speed 0 (slow, small) … 10 (fast).")
    var speed: Int?

    @Option(help: "Resampling kernel for --max-size: \(ResamplingKernel.argumentNames.joined(separator: ", ")).")
    var kernel: String = ResamplingKernel.lanczos3.rawValue

    @Flag(name: .customLong("keep-metadata"), help: "Keep EXIF (orientation reset to 1), XMP and a still-valid ICC profile in JPEG, PNG and WebP output.")
    var keepMetadata = false

    @Flag(name: .customLong("no-auto-orient"), help: "Keep the stored pixels; do not apply EXIF orientation.")
    var noAutoOrient = false

    @Flag(name: .customLong("no-shrink-on-load"), help: "Decode at full size even when --max-size allows less (for measuring).")
    var noShrinkOnLoad = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(FailOnOption.convertHelp, valueName: "LEVEL"))
    var failOn: String?

    @Option(parsing: .unconditional, help: "The page of a multi-page TIFF to convert, 0 being the first.")
    var page: Int = 0

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse images, and filter outputs, with more pixels than this.")
    var maxPixels: Int = DecodeLimits.defaultMaxPixels

    func run() throws {
        do {
            let conversion = try makeConversion()
            if let format = try? conversion.resolvedFormat() {
                let given = VariantEncoding(
                    quality: quality, progressive: progressive ? true : nil, compression: compression,
                    lossless: lossless ? true : nil, speed: speed, strip: keepMetadata ? false : nil,
                    optimize: noOptimize ? false : nil)
                for key in given.settingsIgnored(by: format) {
                    StandardError.write("darkroom: warning: '\(key)' does not apply to \(format.rawValue) output and is ignored\n")
                }
            }
            let result = try conversion.run(using: .standard)
            let h = result.inputHeader
            let line = "\(name(input, FileBytes.standardInputName)) (\(h.format.rawValue) \(h.width)x\(h.height)) -> "
                + "\(name(output, FileBytes.standardOutputName)) "
                + "(\(result.outputFormat.rawValue) \(result.outputSize), \(result.outputBytes) bytes)\n"
            if let flattened = result.flattenedAnimation {
                StandardError.write("darkroom: warning: \(name(input, FileBytes.standardInputName)): \(flattened)\n")
            }
            // Standard output carries the image when OUTPUT is -: the summary goes beside it.
            if output == Conversion.standardStream {
                StandardError.write(line)
            } else {
                print(line, terminator: "")
            }
        } catch {
            throw CommandFailure.exit(subject: name(input, FileBytes.standardInputName), error)
        }
    }

    /// How the summary names a path, or a standard stream for `-`.
    private func name(_ path: String, _ stream: String) -> String {
        path == Conversion.standardStream ? stream : path
    }

    private func makeConversion() throws -> Conversion {
        try BatchInput.refuseURL(input, command: "convert")
        guard !output.isEmpty else {
            throw DarkroomError.invalidArgument(name: "--output", value: output, expected: "a file path")
        }
        var conversion = Conversion(input: input, output: output)
        if let format {
            guard let parsed = ImageFormat(name: format) else {
                throw DarkroomError.invalidArgument(
                    name: "--format", value: format,
                    expected: "one of \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            conversion.format = parsed
        }
        if let maxSize {
            guard let size = PixelSize(parsingBound: maxSize) else {
                throw DarkroomError.invalidArgument(
                    name: "--max-size", value: maxSize, expected: "WxH, N (NxN), Wx or xH with positive integers, e.g. 256x256")
            }
            conversion.maxSize = size
        }
        guard let kernel = ResamplingKernel(named: kernel) else {
            throw DarkroomError.invalidArgument(
                name: "--kernel", value: kernel, expected: "one of \(ResamplingKernel.argumentNames.joined(separator: ", "))")
        }
        guard maxPixels > 0 else {
            throw DarkroomError.invalidArgument(name: "--max-pixels", value: String(maxPixels), expected: "a positive integer")
        }
        guard page >= 0 else {
            throw DarkroomError.invalidArgument(name: "--page", value: String(page), expected: "0 or more (0 is the first page)")
        }
        conversion.decoding.page = page
        conversion.kernel = kernel
        conversion.quality = quality
        conversion.progressive = progressive
        conversion.optimizesCoding = noOptimize ? false : nil
        conversion.compressionLevel = compression
        conversion.lossless = lossless
        conversion.speed = speed
        conversion.keepsMetadata = keepMetadata
        conversion.decoding.appliesOrientation = !noAutoOrient
        conversion.shrinkOnLoad = !noShrinkOnLoad
        conversion.decoding.limits.maxPixels = maxPixels
        conversion.decoding = try FailOnOption.decoding(
            conversion.decoding, option: failOn, configuration: nil, input: name(input, FileBytes.standardInputName))
        return conversion
    }
}
