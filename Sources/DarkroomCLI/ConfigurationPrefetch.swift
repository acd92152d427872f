import Darkroom
import DarkroomTools
import DarkroomConfig
import Dispatch
import Synchronization

// MARK: - ConfigurationPrefetch

/// Loads the configuration on another core while the command line is read.
///
/// Reading `filters.d` takes about 1.5 ms on a cold process and swift-argument-parser's first
/// parse about 2 ms; done one after the other they delay the first image, and the second core
/// is idle meanwhile. (A plain batch line skips swift-argument-parser, see
/// ``PlainBatchCommandLine``, and then waits here for the rest of the load.) The prefetch
/// guesses the `--config` value from the raw arguments and loads that configuration
/// concurrently. The guess is only a guess: ``configuration(_:)`` uses the prefetched result
/// only when the parsed `--config` value is exactly the one guessed, and loads normally
/// otherwise, so the outcome (including every diagnostic) is the same either way.
///
/// The load is claimed by whoever gets to it first. The new thread is started on the other
/// CPU (see `SpreadThreads`); when that CPU is busy with another process the thread may not
/// run for milliseconds, and a caller that finds the load not yet begun does it itself
/// instead of waiting for a thread that has not started.
///
/// ```swift
/// ConfigurationPrefetch.start(arguments: Array(CommandLine.arguments.dropFirst()))
/// // … parse …
/// let (location, configuration) = ConfigurationPrefetch.configuration(config)
/// ```
enum ConfigurationPrefetch {
    /// The subcommands with a `--config` option. (An array: the process's first `Set<String>`
    /// costs a conformance lookup, ~0.1 ms, before the prefetch could start.)
    static let configuredCommands = ["batch", "render", "check", "list", "cache"]

    /// One prefetch: the guessed `--config` value and, once `done`, its configuration.
    private final class Prefetch: Sendable {
        let explicit: String?
        let done = DispatchGroup()
        let loaded = Mutex<(ConfigLocation, Configuration)?>(nil)
        /// Whether the prefetch thread or the caller has taken the load (only one does it).
        private let taken = Atomic<Bool>(false)

        init(explicit: String?) { self.explicit = explicit }

        /// True for the first caller only: that one loads the configuration.
        func take() -> Bool {
            taken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }
    }

    /// The prefetch started and not yet taken.
    private static let started = Mutex<Prefetch?>(nil)

    /// Starts loading the configuration `arguments` (without the program name) seem to name,
    /// when they start with a subcommand that reads one. `startThread` runs the load's body on
    /// a new thread (tests pass one that holds it back, as a busy CPU would).
    static func start(
        arguments: [String], startThread: (@escaping @Sendable () -> Void) -> Void = SpreadThreads.detach
    ) {
        guard let command = arguments.first, configuredCommands.contains(command) else { return }
        let prefetch = Prefetch(explicit: guessedConfig(in: arguments.dropFirst()))
        prefetch.done.enter()
        started.withLock { $0 = prefetch }
        // On its own thread, started on another CPU (see SpreadThreads).
        startThread {
            guard prefetch.take() else { return }
            let configuration = load(prefetch.explicit)
            prefetch.loaded.withLock { $0 = configuration }
            prefetch.done.leave()
        }
    }

    /// The configuration for the parsed `--config` value: the prefetched one when it was
    /// guessed right (waiting for it if its load has begun), else loaded now.
    static func configuration(_ explicit: String?) -> (ConfigLocation, Configuration) {
        if let prefetch = started.withLock({ started in defer { started = nil }; return started }),
            prefetch.explicit == explicit {
            if prefetch.take() { return load(explicit) }  // the thread has not started yet
            prefetch.done.wait()
            if let configuration = prefetch.loaded.withLock({ $0 }) { return configuration }
        }
        return load(explicit)
    }

    /// The value of the last `--config VALUE` or `--config=VALUE` before a `--` terminator;
    /// `nil` when there is none.
    static func guessedConfig(in arguments: ArraySlice<String>) -> String? {
        var found: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--config", index + 1 < arguments.endIndex {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--config=") {
                found = String(argument.dropFirst("--config=".count))
            }
            index += 1
        }
        return found
    }

    private static func load(_ explicit: String?) -> (ConfigLocation, Configuration) {
        let location = ConfigLocation.resolve(explicit: explicit)
        let registry = CommandRegistry.shared
        return (location, location.load(filters: registry.filters, writableFormats: Set(registry.writableFormats)))
    }
}
