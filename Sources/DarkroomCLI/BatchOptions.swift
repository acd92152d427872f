import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomCore
import DarkroomCurl
import DarkroomFilters
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// MARK: - BatchOptions

/// What `darkroom batch` was asked to do, as plain values: filled in by ``BatchCommand``
/// (swift-argument-parser) or, for a plain command line, by ``PlainBatchCommandLine``.
///
/// ```swift
/// let options = BatchOptions(inputs: ["photos"], variants: ["thumbnail"], out: "out")
/// try options.run()
/// ```
struct BatchOptions: Equatable {
    var inputs: [String] = []
    var urlList: String?
    var variants: [String] = []
    var out: String = ""
    /// Images rendered at once: by default one per CPU this process may use (its affinity
    /// mask, so `taskset` and container CPU sets count), as vips and sharp do.
    var jobs = BatchOptions.defaultJobs
    var config: String?
    var noCache = false
    /// Print the summary as JSON, and no line per input.
    var json = false
    /// Keep metadata in every variant's output (`strip = false`).
    var keepMetadata = false
    /// `--fail-on`: how much damage stops a decode (`nil`: the configuration's `[decode]`).
    var failOn: String?

    /// `--jobs` when it is not given.
    static var defaultJobs: Int { max(1, SpreadThreads.allowedCPUCount) }

    /// Why these options cannot run, in swift-argument-parser's usage-error words; `nil` when
    /// they can. (``BatchCommand/validate()`` throws it; ``PlainBatchCommandLine`` declines
    /// such a line so that swift-argument-parser reports it.)
    var validationFailure: String? {
        if jobs < 1 { return "--jobs must be at least 1" }
        if out.isEmpty { return "--out must name a folder (it is empty)" }
        if variants.isEmpty { return "give at least one --variant" }
        if inputs.isEmpty && urlList == nil { return "give at least one INPUT or --url-list FILE" }
        return nil
    }

    /// Renders every input's variants into `out`, prints the summary and each failure.
    /// - Throws: the ``ExitStatus`` of what failed (after printing why) when `out` is a file,
    ///   the configuration, a variant, an input list or the caches are unusable; when inputs
    ///   failed, the status of the first of them.
    func run() throws {
        var status = stat()
        if stat(out, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw CommandFailure.exit(subject: out, DarkroomError.io(path: out, detail: "--out names a file, not a folder"))
        }
        // Files and folders do not depend on the configuration: find them while it loads on
        // the prefetch thread. An argument that cannot be used (a missing file, a malformed
        // URL) is one failed input of the batch, reported with the others; the rest still run.
        // Folder walks skip the output folders, so outputs written inside an input folder are
        // not the next run's inputs.
        let outputFolders = BatchInput.outputFolders(out, variants: variants)
        let localInputs = urlList == nil && !inputs.contains(where: BatchInput.isURL)
            ? BatchInput.expandAll(inputs, skipping: outputFolders) : nil
        let (location, configuration) = CommandRegistry.configuration(config)
        var targets: [RenderTarget]
        do {
            targets = try VariantSelection.targets(variants: variants, configuration: configuration, location: location)
            if keepMetadata {
                for index in targets.indices { targets[index].encoding.strip = false }
            }
        } catch {
            throw CommandFailure.exit(subject: variants.joined(separator: ","), error)
        }
        var arguments = inputs
        if let urlList {
            do {
                arguments += try BatchInput.urlList(at: urlList)
            } catch {
                throw CommandFailure.exit(subject: urlList, error)
            }
        }
        let http = HTTPSource(settings: configuration.httpSourceSettings)
        let found = localInputs ?? BatchInput.expandAll(arguments, key: { try http.key(for: $0) }, skipping: outputFolders)
        // --jobs is the number of threads: parallelism across images, none inside one.
        Resampler.maximumThreads = 1
        let batch = Batch(inputs: found.inputs, unusable: found.unusable, targets: targets, outputDirectory: out)
        let display = ProgressDisplay(isTerminal: isatty(STDERR_FILENO) == 1, quiet: json)
        let decoding: DecodeOptions
        do {
            decoding = try FailOnOption.decoding(option: failOn, configuration: configuration, input: "batch")
        } catch {
            throw CommandFailure.exit(subject: "--fail-on", error)
        }
        let renderer: CachingRenderer
        var pipeline: ImagePipeline?
        let caches: CacheLayers
        do {
            caches = try CommandRegistry.caches(for: configuration, noCache: noCache)
            renderer = CommandRegistry.renderer(caches: caches, decoding: decoding)
            if found.inputs.contains(where: \.isURL) { try CommandRegistry.requireSourceSettings(configuration) }
            if !found.inputs.isEmpty {
                pipeline = try CommandRegistry.pipeline(
                    for: configuration, targets: targets, caches: caches, jobs: jobs, decoding: decoding,
                    threading: .shared)
            }
        } catch {
            throw CommandFailure.exit(subject: "cache", error)
        }
        let fromCache = Atomic<Int>(0)
        let summary = batch.run(renderer: renderer, pipeline: pipeline, jobs: jobs) { progress in
            fromCache.add(progress.cached, ordering: .relaxed)
            display.show(progress)
        }
        display.finish()
        CommandRegistry.flushCounters(of: caches)
        let statuses = summary.failures.map { CommandFailure.exit(subject: $0.input, $0.error) }
        print(json ? Self.json(summary, statuses: statuses, fromCache: fromCache.load(ordering: .relaxed)) : Self.text(summary))
        if let first = statuses.first { throw first }
    }
}

// MARK: - Summary

extension BatchOptions {
    /// `batch: 6 done, 0 failed, 18 files written, 0.260 s, 23.1 images/s`.
    static func text(_ summary: Batch.Summary) -> String {
        "batch: \(summary.succeeded) done, \(summary.failures.count) failed, \(summary.outputs) files written, "
            + "\(FixedDecimal.text(summary.seconds, decimals: 3)) s, "
            + "\(FixedDecimal.text(summary.imagesPerSecond, decimals: 1)) images/s"
    }

    /// The summary as one JSON object (`--json`), failures in input order with the reason and
    /// the exit status each would give; credentials in URLs are hidden, as in the error lines.
    static func json(_ summary: Batch.Summary, statuses: [ExitCode], fromCache: Int) -> String {
        let failures = zip(summary.failures, statuses).map { failure, status in
            "{\"input\":\(JSONText.string(CommandFailure.shown(failure.input))),"
                + "\"error\":\(JSONText.string(CommandFailure.shown("\(failure.error)"))),\"status\":\(status.rawValue)}"
        }
        return "{\"done\":\(summary.succeeded),\"failed\":\(summary.failures.count),\"filesWritten\":\(summary.outputs),"
            + "\"fromCache\":\(fromCache),\"seconds\":\(FixedDecimal.text(summary.seconds, decimals: 3)),"
            + "\"imagesPerSecond\":\(FixedDecimal.text(summary.imagesPerSecond, decimals: 1)),"
            + "\"failures\":[\(failures.joined(separator: ","))]}"
    }
}
