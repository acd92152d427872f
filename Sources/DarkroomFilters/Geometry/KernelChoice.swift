import DarkroomCore

// MARK: - Kernel argument

/// The `kernel` argument of the resizing filters: a kebab-case word per ``ResamplingKernel``.
///
/// ```swift
/// KernelChoice.kernel(named: "catmull-rom") // .catmullRom
/// KernelChoice.name(of: .lanczos3)          // "lanczos3"
/// ```
enum KernelChoice {
    /// Every kernel with its argument word, the default first.
    static let pairs: [(name: String, kernel: ResamplingKernel)] = [
        ("lanczos3", .lanczos3), ("lanczos2", .lanczos2), ("mitchell", .mitchell),
        ("catmull-rom", .catmullRom), ("bilinear", .bilinear), ("box", .box),
    ]

    /// The words a `kernel` argument accepts.
    static let names = pairs.map(\.name)

    /// The declaration shared by `scale`, `aspect-fit` and `aspect-fill`.
    static let argument = FilterArgument(
        name: "kernel", kind: .choice(names), default: .choice("lanczos3"),
        summary: "resampling filter: lanczos3 (sharpest), lanczos2, mitchell (soft), catmull-rom, bilinear, box")

    /// The declaration of `upscale`, shared by the resizing filters.
    static let upscaleArgument = FilterArgument(
        name: "upscale", kind: .boolean, default: .boolean(true),
        summary: "false never enlarges the image (see the filter's documentation)")

    /// The kernel named `name` (one of ``names``, as a validated argument is); Lanczos3 otherwise.
    static func kernel(named name: String) -> ResamplingKernel {
        pairs.first { $0.name == name }?.kernel ?? .lanczos3
    }

    /// The argument word for `kernel`.
    static func name(of kernel: ResamplingKernel) -> String {
        pairs.first { $0.kernel == kernel }!.name
    }
}
