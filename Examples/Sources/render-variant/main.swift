// A variant through the pipeline: `render-variant FILTERS_D ROOT LOCATION VARIANT OUT` loads the
// folder (an error in it is thrown as file:line: message), renders LOCATION (a file under ROOT,
// or an http(s) URL) as VARIANT, and writes the bytes to OUT.
import Darkroom
import Glibc  // exit

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 5 else {
    print("usage: render-variant FILTERS_D ROOT LOCATION VARIANT OUT")
    exit(64)
}
let (folder, root, location, variant, output) = (arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])
do {
    let pipeline = try ImagePipeline(directory: folder, fileRoot: root)
    let response = try await pipeline.image(for: location, variant: variant)
    try AtomicFileWriter.write(response.bytes, to: output)
    print("\(variant): \(response.bytes.count) bytes of \(response.format) (\(response.cacheLayer))")
} catch {
    print("render-variant: \(error)")
    exit(1)
}
