@testable import DarkroomCLI
import Darkroom
import DarkroomTools
import DarkroomConfig
import DarkroomTestSupport
import Foundation
import Synchronization
import Testing

/// The prefetch is process-wide state, so these tests run one at a time.
@Suite("The configuration prefetch gives the configuration the command line names", .serialized)
struct ConfigurationPrefetchTests {
    // MARK: - Helpers

    /// A filters.d folder with one variant, `first`.
    private func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "darkroom-prefetch")
        try variantFile(named: "first").write(toFile: folder.path("10-first.toml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func variantFile(named name: String) -> String {
        """
        [variants.\(name)]
        filters = [ { filter = "aspect-fit", width = 64, height = 64 } ]
        format = "png"
        """
    }

    /// Adds a variant `later` to `folder`, after a prefetch may have read it.
    private func addLaterVariant(to folder: TemporaryDirectory) throws {
        try variantFile(named: "later").write(toFile: folder.path("20-later.toml"), atomically: true, encoding: .utf8)
    }

    /// The folder's own variants (it is read over the built-in defaults).
    private func variantNames(_ loaded: (ConfigLocation, Configuration)) -> [String] {
        loaded.1.variants.filter { !$0.definedAt.file.hasPrefix(ConfigLocation.builtInPrefix) }.map(\.name).sorted()
    }

    /// A thread starter that keeps the body until `runHeld()`: a thread that has not run yet.
    /// It runs it anyway after two seconds, so that a caller wrongly waiting for it fails the
    /// test instead of hanging it.
    private final class HeldThread: Sendable {
        private let body = Mutex<(@Sendable () -> Void)?>(nil)
        /// Whether the two seconds ran out before `runHeld()` was called.
        let ranOutOfPatience = Atomic<Bool>(false)

        func start(_ work: @escaping @Sendable () -> Void) {
            body.withLock { $0 = work }
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: 2)
                ranOutOfPatience.store(true, ordering: .sequentiallyConsistent)
                runHeld()
            }
        }

        func runHeld() { body.withLock { $0 }?() }
    }

    // MARK: - Guessing --config

    @Test("the last --config before -- is the guess, in either spelling")
    func guessesTheConfigFolder() {
        #expect(ConfigurationPrefetch.guessedConfig(in: ["a.jpg", "--config", "x", "--out", "o"]) == "x")
        #expect(ConfigurationPrefetch.guessedConfig(in: ["--config=x", "--config", "y"]) == "y")
        #expect(ConfigurationPrefetch.guessedConfig(in: ["--config", "x", "--", "--config", "y"]) == "x")
        #expect(ConfigurationPrefetch.guessedConfig(in: ["a.jpg", "--config"]) == nil)
        #expect(ConfigurationPrefetch.guessedConfig(in: ["a.jpg"]) == nil)
    }

    // MARK: - Who loads

    @Test("a prefetch that has run is used: a file added afterwards is not seen")
    func usesAFinishedPrefetch() throws {
        let folder = try folder()
        ConfigurationPrefetch.start(arguments: ["batch", "--config", folder.url.path]) { $0() }
        try addLaterVariant(to: folder)
        #expect(variantNames(ConfigurationPrefetch.configuration(folder.url.path)) == ["first"])
    }

    @Test("when the prefetch thread has not started, the caller loads without waiting for it")
    func callerLoadsWhenTheThreadHasNotStarted() throws {
        let folder = try folder()
        let held = HeldThread()
        ConfigurationPrefetch.start(arguments: ["batch", "--config", folder.url.path], startThread: held.start)
        try addLaterVariant(to: folder)
        // Returns before the thread runs, and reads the folder as it is now.
        #expect(variantNames(ConfigurationPrefetch.configuration(folder.url.path)) == ["first", "later"])
        let waitedForTheThread = held.ranOutOfPatience.load(ordering: .sequentiallyConsistent)
        #expect(!waitedForTheThread)
        held.runHeld()  // the late thread finds the load taken and does nothing
    }

    @Test("a wrong guess is not used: the named folder is loaded")
    func wrongGuessIsIgnored() throws {
        let guessed = try folder()
        let named = try folder()
        try addLaterVariant(to: named)
        ConfigurationPrefetch.start(arguments: ["batch", "--config", guessed.url.path]) { $0() }
        #expect(variantNames(ConfigurationPrefetch.configuration(named.url.path)) == ["first", "later"])
    }
}
