// A filter of your own module: `poster IN OUT [LEVELS]` applies it directly, then renders the
// same chain from its filters.d spelling through a registry that knows it, and checks that both
// give the same pixels.
import Darkroom
import Glibc  // exit
import Posterize

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 || arguments.count == 3 else {
    print("usage: poster IN OUT [LEVELS]")
    exit(64)
}
do {
    var registry = Registry.standard
    PosterizeFilters.register(in: &registry)
    let levels = arguments.count == 3 ? Int(arguments[2]) ?? 0 : 4
    let photo = try registry.decode(file: arguments[0])

    // Typed: the step as a Swift value.
    let typed = try photo.applying(.aspectFit(width: 512), .posterize(levels: levels))
    // Parsed: the same chain as filters.d spells it, through the registry.
    let parsed = try registry.chain(parsing: "aspect-fit(width=512)|posterize(levels=\(levels))")
    guard try FilterChain(parsed.filters).apply(to: photo) == typed else {
        print("poster: the typed and the parsed chain disagree")
        exit(70)
    }
    try registry.encode(typed, options: EncodeOptions(format: .png), toFile: arguments[1])
    print("\(FilterChain(parsed.filters).identifier): \(typed.width)x\(typed.height)")
} catch {
    print("poster: \(error)")
    exit(1)
}
