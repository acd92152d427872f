// A thumbnail in five lines: `thumbnail IN OUT` writes IN as a JPEG of at most 256×256.
import Darkroom
import Glibc  // exit

do {
    let (input, output) = (CommandLine.arguments[1], CommandLine.arguments[2])
    let registry = Registry.standard
    let photo = try registry.decode(file: input, options: DecodeOptions(sizeHint: PixelSize(width: 256, height: 256)))
    let thumbnail = try photo.applying(.aspectFit(width: 256, height: 256))
    try registry.encode(thumbnail, options: EncodeOptions(format: .jpeg, quality: 82), toFile: output)
} catch {
    print("thumbnail: \(error)")
    exit(1)
}
