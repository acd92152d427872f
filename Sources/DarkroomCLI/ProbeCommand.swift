import ArgumentParser
import Darkroom
import DarkroomTools
import DarkroomCore
import DarkroomSources

// MARK: - darkroom probe

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print an image's format, stored size and EXIF orientation as one JSON object.",
        discussion: """
            Reads only the header: no pixels are decoded. width and height are the stored size, \
            before the orientation is applied. Example output:
              {"format":"jpeg","width":2560,"height":1600,"orientation":1}
            """
    )

    @Argument(help: "The image file.")
    var file: String

    func run() throws {
        do {
            try BatchInput.refuseURL(file, command: "probe")
            let bytes = try FileBytes.read(file)
            let header = try ImageProbe.probe(bytes)
            print(#"{"format":"\#(header.format.rawValue)","width":\#(header.width),"height":\#(header.height),"orientation":\#(header.orientation.rawValue)}"#)
        } catch {
            throw CommandFailure.exit(subject: file, error)
        }
    }
}
