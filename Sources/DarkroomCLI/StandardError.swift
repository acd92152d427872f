import DarkroomSources
import Glibc

// MARK: - StandardError

/// Writes to the process's standard error, unbuffered, as whole lines or progress updates.
///
/// ```swift
/// StandardError.write("darkroom: error: …\n")
/// ```
enum StandardError {
    /// Writes `text` in full (retrying short writes and interruptions); a closed or broken
    /// stream loses it silently, as a diagnostic has nowhere else to go.
    static func write(_ text: String) {
        try? FileBytes.writeAll(Array(text.utf8), to: STDERR_FILENO, path: "standard error")
    }
}
