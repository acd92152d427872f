// MARK: - PlainBatchCommandLine

/// Reads a plain `darkroom batch` command line without swift-argument-parser.
///
/// swift-argument-parser builds its view of a command by reflecting over the command's
/// properties, and on a cold process each first type and conformance lookup behind that scans
/// all of the binary's ~4,400 conformance records: about 2 ms before the first image, on the
/// critical path of every short batch (a fifth of a `--jobs 2` thumbnail run's serial time).
/// A batch line made only of INPUTs and the batch options spelled out in full needs none of
/// that, so it is read here; anything else returns `nil` and goes through
/// swift-argument-parser as before: help, other spellings, a value that starts with `-`, an
/// option given twice that takes one value, `--`, unknown options, and every line that would
/// fail ``BatchCommand``'s validation (so every usage error is still swift-argument-parser's
/// own). A test parses many lines both ways and requires the same ``BatchOptions`` from both.
///
/// ```swift
/// PlainBatchCommandLine.options(["batch", "photos", "--variant", "thumbnail", "--out", "out"])
/// // BatchOptions(inputs: ["photos"], variants: ["thumbnail"], out: "out")
/// ```
enum PlainBatchCommandLine {
    /// The options of `arguments` (without the program name) when they are a plain batch line.
    static func options(_ arguments: [String]) -> BatchOptions? {
        guard arguments.first == "batch" else { return nil }
        var options = BatchOptions()
        var out: String?, jobs: String?
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                // `help` is one of swift-argument-parser's own words; leave it to it.
                guard argument != "help" else { return nil }
                options.inputs.append(argument)
                continue
            }
            if argument == "--no-cache" {
                guard !options.noCache else { return nil }
                options.noCache = true
                continue
            }
            // `--name VALUE` or `--name=VALUE`, the value not looking like an option.
            let name: Substring, value: String
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else {
                guard index < arguments.count else { return nil }
                name = argument[...]
                value = arguments[index]
                index += 1
            }
            guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
            switch name {
            case "--variant": options.variants.append(value)
            case "--out": guard set(&out, value) else { return nil }
            case "--jobs": guard set(&jobs, value) else { return nil }
            case "--config": guard set(&options.config, value) else { return nil }
            case "--url-list": guard set(&options.urlList, value) else { return nil }
            default: return nil
            }
        }
        guard let out else { return nil }
        options.out = out
        if let jobs {
            guard let count = Int(jobs) else { return nil }
            options.jobs = count
        }
        // A line BatchCommand.validate() refuses gets swift-argument-parser's usage error.
        return options.validationFailure == nil ? options : nil
    }

    /// Sets a single-valued option once; `false` when it was already given.
    private static func set(_ slot: inout String?, _ value: String) -> Bool {
        guard slot == nil else { return false }
        slot = value
        return true
    }
}
