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
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
