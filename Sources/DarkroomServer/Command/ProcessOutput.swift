import DarkroomSources
import Glibc

// MARK: - ProcessOutput

/// Whole lines to the process's standard output or error, unbuffered: the listening banner
/// must reach a pipe at once (a parent process waits for it), and a start-up error must be
/// out before the process exits. A closed stream loses the text: it has nowhere else to go.
///
/// ```swift
/// ProcessOutput.standardError("darkroom-server: error: …\n")
/// ```
enum ProcessOutput {
    static func standardOutput(_ text: String) {
        try? FileBytes.writeAll(Array(text.utf8), to: STDOUT_FILENO, path: "standard output")
    }

    static func standardError(_ text: String) {
        try? FileBytes.writeAll(Array(text.utf8), to: STDERR_FILENO, path: "standard error")
    }
}
