// MARK: - ServerEnvironment

/// Every `darkroom-server` option from the environment too, as imgproxy's `IMGPROXY_*`
/// settings: `DARKROOM_PORT=8080` is `--port 8080`, `DARKROOM_METRICS=1` is `--metrics`. An
/// option given on the command line wins over its variable. (`DARKROOM_CONFIG`,
/// `DARKROOM_KEY`, `DARKROOM_SALT` and `DARKROOM_ADMIN_TOKEN` are read where they are used.)
///
/// ```swift
/// ServerEnvironment.arguments(["--port", "9000"], environment: ["DARKROOM_PORT": "8080", "DARKROOM_JOBS": "4"])
/// // ["--port", "9000", "--jobs", "4"]
/// ```
enum ServerEnvironment {
    /// Options taking a value, by variable.
    static let options: [(variable: String, option: String)] = [
        ("DARKROOM_HOST", "--host"), ("DARKROOM_PORT", "--port"), ("DARKROOM_ROOT", "--root"),
        ("DARKROOM_IDLE_TIMEOUT", "--idle-timeout"), ("DARKROOM_MAX_AGE", "--max-age"), ("DARKROOM_FALLBACK", "--fallback"),
        ("DARKROOM_JOBS", "--jobs"), ("DARKROOM_LOG_LEVEL", "--log-level"), ("DARKROOM_LOG_FORMAT", "--log-format"),
        ("DARKROOM_STALE_IF_ERROR", "--stale-if-error"), ("DARKROOM_MAX_FRESHNESS", "--max-freshness"),
        ("DARKROOM_MEMORY", "--memory"), ("DARKROOM_MAX_PIXELS", "--max-pixels"), ("DARKROOM_MAX_FRAMES", "--max-frames"), ("DARKROOM_QUEUE_TIMEOUT", "--queue-timeout"),
        ("DARKROOM_ISOLATE_DECODERS", "--isolate-decoders"), ("DARKROOM_DECODER_MEMORY", "--decoder-memory"),
        ("DARKROOM_DECODER_TIMEOUT", "--decoder-timeout"),
    ]
    /// Flags, by variable: `1`, `true` or `yes` set them; `0`, `false`, `no` or empty do not.
    static let flags: [(variable: String, option: String)] = [
        ("DARKROOM_NO_REMOTE", "--no-remote"), ("DARKROOM_AUTO_WEBP", "--auto-webp"), ("DARKROOM_AUTO_AVIF", "--auto-avif"),
        ("DARKROOM_METRICS", "--metrics"), ("DARKROOM_NO_CACHE", "--no-cache"),
        ("DARKROOM_ALLOW_CHAINS", "--allow-chains"),
    ]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `arguments` followed by the options the environment sets and `arguments` does not.
    /// - Throws: ``Failure`` for a flag variable that is not a yes or a no.
    static func arguments(_ arguments: [String], environment: [String: String]) throws -> [String] {
        var result = arguments
        func given(_ option: String) -> Bool {
            arguments.contains { $0 == option || $0.hasPrefix(option + "=") }
        }
        for (variable, option) in options where !given(option) {
            if let value = environment[variable], !value.isEmpty { result += [option, value] }
        }
        for (variable, option) in flags where !given(option) {
            guard let value = environment[variable] else { continue }
            switch value.lowercased() {
            case "1", "true", "yes", "on": result.append(option)
            case "", "0", "false", "no", "off": break
            default: throw Failure(description: "$\(variable) is '\(value)': expected 1, true, yes, or 0, false, no (for \(option))")
            }
        }
        return result
    }

    /// The help's list of variables.
    static var help: String {
        (options + flags).map { "\($0.variable) (\($0.option))" }.joined(separator: ", ")
    }
}
