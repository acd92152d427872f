import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomCore
import DarkroomSources

// MARK: - darkroom probe

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print images' format, size, orientation, alpha, bit depth, ICC profile and frames as JSON.",
        discussion: """
            Reads only the container: no pixels are decoded. width and height are the stored \
            size, before the orientation is applied; bitDepth is bits per sample as stored; \
            iccProfile is the embedded profile's name (null without one, "" when it has no \
            name); frames is 1 for a still image (a TIFF's pages, each one --page of convert). One file prints one object on one line; \
            several print an array with a "file" in each object. A file that cannot be read is \
            reported on stderr and left out; the exit status is then the first failure's.

            Example output:
              {"format":"jpeg","width":2560,"height":1600,"orientation":1,"alpha":false,"bitDepth":8,"iccProfile":"Display P3","frames":1}
            """
    )

    @Argument(help: "The image files.")
    var files: [String]

    @Flag(help: "Print JSON (the only output format; accepted for scripts that ask for it).")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Missing expected argument '<files> ...'") }
    }

    func run() throws {
        var objects: [String] = []
        var firstFailure: ExitCode?
        for file in files {
            do {
                try BatchInput.refuseURL(file, command: "probe")
                let bytes = try FileBytes.read(file)
                var details = try ImageDetails(bytes)
                // The profile's own name, as the decoder reads the profile (PNG's is compressed,
                // so the header alone gives only the chunk's label).
                if details.hasICCProfile,
                    let decoder = try? CommandRegistry.shared.decoder(for: details.header, options: DecodeOptions()),
                    let name = decoder.metadata(in: bytes, header: details.header).iccProfile.flatMap(ICCProfile.name(of:))
                {
                    details.iccProfileName = name
                }
                objects.append(Self.object(details, file: files.count > 1 ? file : nil))
            } catch {
                let status = CommandFailure.exit(subject: file, error)
                firstFailure = firstFailure ?? status
            }
        }
        if files.count == 1 {
            if let object = objects.first { print(object) }
        } else {
            print(objects.isEmpty ? "[]" : "[\n" + objects.joined(separator: ",\n") + "\n]")
        }
        if let firstFailure { throw firstFailure }
    }

    // MARK: - JSON

    /// One file's object, its keys in a fixed order.
    static func object(_ details: ImageDetails, file: String?) -> String {
        let header = details.header
        var fields: [(String, String)] = []
        if let file { fields.append(("file", JSONText.string(file))) }
        fields += [
            ("format", JSONText.string(header.format.rawValue)),
            ("width", "\(header.width)"),
            ("height", "\(header.height)"),
            ("orientation", "\(header.orientation.rawValue)"),
            ("alpha", "\(details.hasAlpha)"),
            ("bitDepth", details.bitDepth.map { "\($0)" } ?? "null"),
            ("iccProfile", details.hasICCProfile ? JSONText.string(details.iccProfileName ?? "") : "null"),
            ("frames", "\(details.frameCount)"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
