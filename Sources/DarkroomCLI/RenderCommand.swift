import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import FoundationEssentials
import DarkroomSources

// MARK: - darkroom render

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render variants (or an ad-hoc filter chain) of one image.",
        discussion: """
            With one --variant, OUT is the output file (or a folder, if it is one). With several \
            --variant options, OUT is a folder and each variant is written as OUT/NAME.EXT. The \
            source is decoded once per shrink-on-load scale the variants need (usually once; each \
            variant comes out as it would alone), and chain prefixes shared by variants are \
            computed once.

            SOURCE - reads standard input (rendered without the caches: piped bytes have no \
            identity to key them by); -o - writes one variant to standard output, and the summary \
            line goes to standard error.

            --filter takes the identifier syntax, e.g. 'aspect-fill(height=128,width=128)'; \
            give it several times for a chain, or join filters with '|'. The output format then \
            comes from OUT's extension or --format; or end the last --filter with '>' and encoder \
            settings ('>jpeg(progressive=true,quality=85)'), so that any identifier 'darkroom list' \
            prints renders as it is.

            Examples:
              darkroom render photo.jpg --variant avatar -o avatar.png
              darkroom render https://example.com/cat.jpg --variant avatar -o avatar.png
              darkroom render photo.jpg --variant thumbnail --variant preview -o out/
              darkroom render photo.jpg --filter 'aspect-fit(height=300,width=300)' --filter grayscale -o g.webp
              curl -s https://example.com/cat.jpg | darkroom render - --variant avatar -o - > avatar.png
            """
    )

    @Argument(help: "The source image: a file, an http(s) URL, or - for standard input.")
    var source: String

    @Option(name: .customLong("variant"), help: "A variant from the configuration (repeatable).")
    var variants: [String] = []

    @Option(name: .customLong("filter"), help: "A filter in identifier syntax (repeatable; an ad-hoc chain).")
    var filters: [String] = []

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Option(name: .shortAndLong, help: "The output file (- for standard output), or folder for several variants.")
    var output: String

    @Option(help: "Output format for --filter chains (default: from OUT's extension).")
    var format: String?

    @Option(parsing: .unconditional, help: "Lossy quality 1…100 for --filter chains.")
    var quality: Int?

    @Flag(name: .customLong("keep-metadata"), help: "Keep EXIF (orientation reset to 1), XMP and a still-valid ICC profile in JPEG, PNG and WebP output (as strip = false in a variant).")
    var keepMetadata = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(FailOnOption.help, valueName: "LEVEL"))
    var failOn: String?

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the caches (for measuring).")
    var noCache = false

    func run() throws {
        do {
            try render()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CommandFailure.exit(subject: source == Conversion.standardStream ? FileBytes.standardInputName : source, error)
        }
    }

    private func render() throws {
        // An empty path must not reach the writer, which would put the files in "/".
        guard !output.isEmpty else {
            throw DarkroomError.invalidArgument(name: "--output", value: output, expected: "a file or folder path")
        }
        guard variants.isEmpty != filters.isEmpty else {
            throw DarkroomError.invalidArgument(
                name: "options", value: variants.isEmpty ? "none" : "--variant and --filter",
                expected: "either --variant NAME… or --filter SPEC…")
        }
        if filters.isEmpty, format != nil || quality != nil {
            throw DarkroomError.invalidArgument(
                name: "options", value: format != nil ? "--format with --variant" : "--quality with --variant",
                expected: "--format and --quality only with --filter; a variant's encoding comes from filters.d "
                    + "(and its format from OUT's extension)")
        }
        let registry = CommandRegistry.shared
        let toStandardOutput = output == Conversion.standardStream
        if toStandardOutput, variants.count > 1 {
            throw DarkroomError.invalidArgument(
                name: "--output", value: output, expected: "a folder for several variants (standard output takes one image)")
        }
        let isFolder = !toStandardOutput && (variants.count > 1 || output.hasSuffix("/") || Self.isDirectory(output))
        var targets: [RenderTarget]
        let (location, configuration) = CommandRegistry.configuration(config)
        let shownSource = source == Conversion.standardStream ? FileBytes.standardInputName : source
        let decoding = try FailOnOption.decoding(option: failOn, configuration: configuration, input: shownSource)
        if filters.isEmpty {
            targets = try VariantSelection.targets(variants: variants, configuration: configuration, location: location)
            if !isFolder, let fromExtension = ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) {
                if let own = targets[0].encoding.format, own != fromExtension {
                    throw DarkroomError.invalidArgument(
                        name: "output", value: output,
                        expected: "a .\(own.preferredFileExtension) file: variant '\(targets[0].name)' writes \(own.rawValue)")
                }
                targets[0].encoding.format = fromExtension
            }
        } else {
            let (chain, settings) = try VariantSelection.adHocChain(filters, registry: registry)
            let encoding = try adHocEncoding(isFolder: isFolder, settings: settings)
            // As `darkroom check` does for filters.d: a setting the format has no use for is
            // named, not dropped in silence.
            if let format = encoding.format {
                for key in encoding.settingsIgnored(by: format) {
                    StandardError.write("darkroom: warning: '\(key)' does not apply to \(format.rawValue) output and is ignored\n")
                }
            }
            targets = [RenderTarget(name: "custom", chain: FilterChain(chain), encoding: encoding)]
        }
        if keepMetadata {
            for index in targets.indices { targets[index].encoding.strip = false }
        }
        let fromStandardInput = source == Conversion.standardStream
        let configuredSource = fromStandardInput ? false : try CommandRegistry.isConfiguredSource(source, configuration: configuration)
        if !configuredSource, !fromStandardInput { try BatchInput.refuseOtherSchemes(source) }
        // Files and URLs take one path: the pipeline, run to completion.
        if BatchInput.isURL(source) || configuredSource { try CommandRegistry.requireSourceSettings(configuration) }
        // Piped bytes have no name or fingerprint to key renders by: no caches for them.
        let caches = try CommandRegistry.caches(for: configuration, noCache: noCache || fromStandardInput)
        var input = source
        var piped: MemorySource?
        if fromStandardInput {
            let bytes = try FileBytes.readStandardInput(maxBytes: DecodeLimits.defaultMaxInputBytes)
            piped = MemorySource([Self.standardInputImage: bytes])
            input = MemorySource.scheme + Self.standardInputImage
        }
        let pipeline = try CommandRegistry.pipeline(for: configuration, targets: targets, caches: caches, jobs: 1, first: piped, decoding: decoding)
        let names = targets.map(\.name)
        let responses = try BlockingWait.run(on: pipeline.executor) { [input] in
            try await pipeline.images(for: input, variants: names)
        }
        for response in responses {
            if let flattened = response.flattenedAnimation {
                StandardError.write("darkroom: warning: \(response.variant): \(flattened)\n")
            }
        }
        let rendered = responses.map { response in
            (name: response.variant, bytes: response.bytes, format: response.format,
             cached: response.cacheLayer.isCache ? response.cacheLayer.rawValue : nil)
        }
        CommandRegistry.flushCounters(of: caches)
        if toStandardOutput, let result = rendered.first {
            try FileBytes.writeStandardOutput(result.bytes)
            StandardError.write("\(result.name): \(FileBytes.standardOutputName) (\(result.format.rawValue), \(result.bytes.count) bytes)\n")
            return
        }
        for result in rendered {
            let path = isFolder
                ? "\(output.hasSuffix("/") ? String(output.dropLast()) : output)/\(result.name).\(result.format.preferredFileExtension)"
                : output
            do {
                try AtomicFileWriter.write(result.bytes, to: path)
            } catch {
                throw CommandFailure.exit(subject: path, error)
            }
            let origin = result.cached.map { ", from the \($0) cache" } ?? ""
            print("\(result.name): \(path) (\(result.format.rawValue), \(result.bytes.count) bytes\(origin))")
        }
    }

    /// The encoding of a `--filter` chain: the settings after its `>`, or `--format` and
    /// `--quality`; the format from OUT's extension when neither names one.
    private func adHocEncoding(isFolder: Bool, settings: VariantEncoding?) throws -> VariantEncoding {
        if var settings {
            guard format == nil, quality == nil else {
                throw DarkroomError.invalidArgument(
                    name: "options", value: "--format or --quality with encoder settings after '>'",
                    expected: "the encoder settings once: after '>' in --filter, or with --format and --quality")
            }
            let fromExtension = isFolder ? nil : ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension)
            if let own = settings.format, let fromExtension, own != fromExtension {
                throw DarkroomError.invalidArgument(
                    name: "output", value: output, expected: "a .\(own.preferredFileExtension) file: the settings write \(own.rawValue)")
            }
            settings.format = settings.format ?? fromExtension
            return settings
        }
        var encoding = VariantEncoding()
        encoding.quality = quality
        if let format {
            guard let parsed = ImageFormat(name: format) else {
                throw DarkroomError.invalidArgument(
                    name: "--format", value: format, expected: "one of \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            encoding.format = parsed
        } else if !isFolder {
            // As `convert`: the file's extension must name the format (a JPEG in "x.xyz" helps no one).
            encoding.format = try Conversion(input: source, output: output).resolvedFormat()
        }
        if let quality, !(1...100).contains(quality) {
            throw DarkroomError.invalidArgument(name: "quality", value: String(quality), expected: "an integer 1…100")
        }
        return encoding
    }

    /// The name standard input's bytes are served under (`memory:stdin`).
    static let standardInputImage = "stdin"

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }
}
