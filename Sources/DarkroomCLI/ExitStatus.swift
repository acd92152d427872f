import ArgumentParser
import DarkroomCore
import DarkroomSources

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Exit statuses

/// The statuses `darkroom` exits with, from BSD's `sysexits.h`, so a script can tell a typo in
/// its command line from a broken image, a missing file, an origin that is down or a bug.
///
/// ```swift
/// ExitStatus(for: DarkroomError.emptyInput)  // .dataError (65)
/// ```
enum ExitStatus: Int32, CaseIterable {
    /// 64 (`EX_USAGE`): the command line was wrong (an unknown option, a value out of range, an
    /// unknown variant, a malformed URL, `cache purge` without `--all`).
    case usage = 64
    /// 65 (`EX_DATAERR`): the input is not an image Darkroom can read or render (corrupt,
    /// truncated, unrecognised, too many pixels, too large for the output format).
    case dataError = 65
    /// 66 (`EX_NOINPUT`): an input file does not exist or cannot be read.
    case noInput = 66
    /// 69 (`EX_UNAVAILABLE`): a source failed (an HTTP or S3 fetch, no source for the input).
    case unavailable = 69
    /// 70 (`EX_SOFTWARE`): an internal error (an encoder failed, or an error Darkroom does not
    /// classify).
    case software = 70
    /// 74 (`EX_IOERR`): reading or writing failed otherwise (an output file, the cache folder).
    case ioError = 74
    /// 78 (`EX_CONFIG`): the configuration (`filters.d/`) has errors.
    case configuration = 78

    /// The status for an error a command failed with.
    init(for error: any Error) {
        switch error {
        case let error as DarkroomError: self = Self.status(for: error)
        case is SettingsError: self = .configuration
        case is ValidationError: self = .usage
        default: self = .software
        }
    }

    /// The status as swift-argument-parser's `ExitCode`.
    var exitCode: ExitCode { ExitCode(rawValue) }

    // MARK: - Classifying DarkroomError

    private static func status(for error: DarkroomError) -> ExitStatus {
        switch error {
        case .emptyInput, .inputTooLarge, .unrecognizedFormat, .unsupportedFormat, .truncated, .corrupt,
             .tooManyPixels, .frameTooLarge, .tooManyFrames, .invalidDimensions, .decodeFailed, .outputTooLarge:
            return .dataError
        case .invalidArgument:
            return .usage
        case let .io(path, detail):
            return isMissingInput(path: path, detail: detail) ? .noInput : .ioError
        case let .fetchFailed(_, _, _, kind):
            return kind == .invalidURL ? .usage : .unavailable
        case .noComponent:
            return .unavailable
        case .encodeFailed, .cancelled:
            return .software
        }
    }

    /// Whether an I/O failure means the input is not there to read: a path that does not exist,
    /// may not be read, is a folder or a device where a file was expected, or a standard input
    /// that is a terminal.
    private static func isMissingInput(path: String, detail: String) -> Bool {
        if path == FileBytes.standardInputName { return true }
        let missing = [
            FileBytes.errnoText(ENOENT), FileBytes.errnoText(EACCES), FileBytes.errnoText(ENOTDIR),
            "is a directory, not a file", "not a regular file", "no such image in memory",
        ]
        return missing.contains { detail.hasPrefix($0) }
    }

    // MARK: - Help

    /// The paragraph `darkroom --help` prints about exit statuses.
    static let helpText = """
        Exit status: 0 success; 64 usage error (an option, value, variant or malformed URL); 65 the image data \
        is bad (corrupt, unrecognised, too many pixels); 66 an input file is missing or \
        unreadable; 69 a source failed (HTTP, S3); 70 internal error; 74 other I/O error (an \
        output file, the cache); 78 the configuration has errors. batch exits with its first \
        failure's status.
        """
}
