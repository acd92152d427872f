import Darkroom
import DarkroomTools

#if canImport(Glibc)
import Glibc
#endif

// MARK: - ProgressDisplay

/// How `batch` shows its progress: a bar on a terminal (stderr, redrawn in place) with the
/// rate, the time left and the input last finished; plain lines otherwise (stdout), none with
/// `--json`.
///
/// ```swift
/// let display = ProgressDisplay(isTerminal: isatty(STDERR_FILENO) == 1)
/// display.show(progress)   // [###########...................] 12/32  3.4 img/s  ETA 6s  photos/a.jpg
/// ```
struct ProgressDisplay: Sendable {
    var isTerminal: Bool
    /// Print no line per input (the summary is JSON on stdout).
    var quiet = false
    /// When the batch started, for the rate and the time left.
    var start = ContinuousClock.now
    /// The terminal's width: the bar line is cut to fit, so it never wraps.
    var columns = ProgressDisplay.terminalColumns()

    func show(_ progress: Batch.Progress) {
        for (variant, flattening) in progress.flattened {
            let line = "darkroom: warning: \(CommandFailure.shown(progress.input)) (\(variant)): \(flattening)"
            StandardError.write((isTerminal ? "\r\u{1B}[K" : "") + CommandFailure.escapingControlCharacters(line) + "\n")
        }
        if isTerminal {
            let elapsed = (ContinuousClock.now - start) / .seconds(1)
            StandardError.write("\r" + Self.barLine(progress, elapsed: elapsed, columns: columns) + "\u{1B}[K")
        } else if !quiet {
            let cached = progress.cached > 0 ? " (\(progress.cached) from cache)" : ""
            let status = progress.error == nil ? "ok, \(progress.outputs.count) files\(cached)" : "failed"
            print(CommandFailure.escapingControlCharacters(
                "[\(progress.finished)/\(progress.total)] \(CommandFailure.shown(progress.input)): \(status)"))
        }
    }

    func finish() {
        if isTerminal { StandardError.write("\n") }
    }

    // MARK: - The bar

    /// `[####......] 12/32  3.4 img/s  ETA 6s  INPUT`, at most `columns - 1` characters: the
    /// input's name loses its start (`…/a.jpg`) first. `elapsed` is seconds since the start.
    static func barLine(_ progress: Batch.Progress, elapsed: Double, columns: Int) -> String {
        let width = 30
        let filled = progress.total == 0 ? width : width * progress.finished / progress.total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let rate = elapsed > 0 ? Double(progress.finished) / elapsed : 0
        let left = progress.total - progress.finished
        let eta = left == 0 ? "done" : rate > 0 ? "ETA " + duration(Double(left) / rate) : "ETA --"
        let head = "[\(bar)] \(progress.finished)/\(progress.total)  \(FixedDecimal.text(rate, decimals: 1)) img/s  \(eta)"
        let name = CommandFailure.escapingControlCharacters(CommandFailure.shown(progress.input))
        let room = columns - 1 - head.count - 2
        guard room >= 8 else { return String(head.prefix(max(0, columns - 1))) }
        let shown = name.count <= room ? name : "…" + name.suffix(room - 1)
        return head + "  " + shown
    }

    /// `6s`, `4:05`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if h > 0 { return "\(h):\(two(m)):\(two(s))" }
        return m > 0 ? "\(m):\(two(s))" : "\(s)s"
    }

    /// The width of the terminal on stderr, or 80 when it does not say.
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
