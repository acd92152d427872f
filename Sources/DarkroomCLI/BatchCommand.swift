import ArgumentParser
import Darkroom
import DarkroomTools

// MARK: - darkroom batch

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render variants of many images into a folder.",
        discussion: """
            INPUTs are files, folders (walked recursively for image files) and http(s) URLs; \
            --url-list adds the URLs (or paths) of a file, one per line (# starts a comment). \
            Each variant of an input is written as OUT/VARIANT/RELATIVE-NAME.EXT (for a URL, the \
            last part of its path). The same URL given many times is downloaded once; URLs are \
            fetched up to 4 at a time, with the [sources.http] settings of the configuration. Every input is decoded once per \
            shrink-on-load scale its variants need (usually once). A failure does not stop the others; at the end a summary is printed, each \
            failure is listed as 'darkroom: error: INPUT: reason', and the exit status is the \
            first failure's (see 'darkroom --help'). On a terminal a progress bar is drawn on \
            stderr, with the rate, the time left and the file last finished; otherwise one line \
            per input is printed. --json prints no line per input and the summary as one JSON \
            object: done, failed, filesWritten, fromCache, seconds, imagesPerSecond and failures \
            (each with its input, error and exit status).

            Example:
              darkroom batch photos/ extra.png --variant thumbnail --variant avatar --out out --jobs 2
              darkroom batch --url-list urls.txt https://example.com/cat.jpg --variant avatar --out out
            """
    )

    @Argument(help: "Image files, folders and http(s) URLs.")
    var inputs: [String] = []

    @Option(name: .customLong("url-list"), help: "A file of URLs (or paths), one per line.")
    var urlList: String?

    @Option(name: .customLong("variant"), help: "A variant from the configuration (repeatable).")
    var variants: [String]

    @Option(help: "The output folder.")
    var out: String

    @Option(parsing: .unconditional, help: "Images rendered at once (default: the CPUs this process may use).")
    var jobs: Int?

    @Option(help: "The filters.d folder (default: $DARKROOM_CONFIG, else ./filters.d, else the embedded default).")
    var config: String?

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the caches (for measuring).")
    var noCache = false

    @Flag(help: "Print the summary as one JSON object, and no line per input.")
    var json = false

    @Flag(name: .customLong("keep-metadata"), help: "Keep EXIF (orientation reset to 1), XMP and a still-valid ICC profile in JPEG, PNG and WebP output (as strip = false in a variant).")
    var keepMetadata = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(FailOnOption.help, valueName: "LEVEL"))
    var failOn: String?

    func validate() throws {
        if let failure = options.validationFailure { throw ValidationError(failure) }
    }

    /// The parsed command line as plain values.
    var options: BatchOptions {
        BatchOptions(
            inputs: inputs, urlList: urlList, variants: variants, out: out, jobs: jobs ?? BatchOptions.defaultJobs, config: config,
            noCache: noCache, json: json, keepMetadata: keepMetadata, failOn: failOn)
    }

    func run() throws {
        try options.run()
    }
}
