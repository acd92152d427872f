import DarkroomCore

// MARK: - ResizeArguments

/// The argument declarations `scale`, `aspect-fit` and `aspect-fill` share, and the `kernel`
/// argument's kebab-case words for the ``ResamplingKernel`` cases.
///
/// ```swift
/// ResizeArguments.resamplingKernel(named: "catmull-rom") // .catmullRom
/// ResizeArguments.name(of: .lanczos3)          // "lanczos3"
/// ```
enum ResizeArguments {
    /// `width` and `height`, integers 1…16384 px, required; `what` says what they measure.
    static func box(_ what: String) -> [FilterArgument] {
        [
            FilterArgument(name: "width", kind: .integer(1...16384), unit: "px", summary: "\(what) width"),
            FilterArgument(name: "height", kind: .integer(1...16384), unit: "px", summary: "\(what) height"),
        ]
    }

    /// `width` and `height`, integers 0…16384 px, default 0 (no limit on that side); the
    /// filter refuses leaving both at 0 (see ``requireOneSide(_:of:)``).
    static func optionalBox(_ what: String) -> [FilterArgument] {
        [
            FilterArgument(name: "width", kind: .integer(0...16384), default: .integer(0), unit: "px", summary: "\(what) width; 0: any width"),
            FilterArgument(name: "height", kind: .integer(0...16384), default: .integer(0), unit: "px", summary: "\(what) height; 0: any height"),
        ]
    }

    /// The box of an ``optionalBox(_:)``, a side of 0 read as no limit (`Int.max`).
    ///
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` when both sides are 0.
    static func requireOneSide(_ arguments: FilterArguments, of filter: String) throws -> PixelSize {
        let width = arguments.int("width"), height = arguments.int("height")
        guard width > 0 || height > 0 else {
            throw DarkroomError.invalidArgument(
                name: "\(filter) arguments", value: "width=0,height=0", expected: "a width, a height or both")
        }
        return PixelSize(width: width > 0 ? width : Int.max, height: height > 0 ? height : Int.max)
    }

    /// `upscale`, a boolean, default `true`.
    static let upscale = FilterArgument(
        name: "upscale", kind: .boolean, default: .boolean(true),
        summary: "false never enlarges the image (see the filter's documentation)")

    /// `kernel`, one of ``kernelNames``, default `lanczos3`.
    static let kernel = FilterArgument(
        name: "kernel", kind: .choice(kernelNames), default: .choice("lanczos3"),
        summary: "resampling filter: lanczos3 (sharpest), lanczos2, mitchell (soft), catmull-rom, bilinear, box")

    // MARK: - Kernel words

    /// Every kernel with its argument word, the default first.
    static let kernels: [(name: String, kernel: ResamplingKernel)] = [
        ("lanczos3", .lanczos3), ("lanczos2", .lanczos2), ("mitchell", .mitchell),
        ("catmull-rom", .catmullRom), ("bilinear", .bilinear), ("box", .box),
    ]

    /// The words a `kernel` argument accepts.
    static let kernelNames = kernels.map(\.name)

    /// The kernel named `name` (one of ``kernelNames``, as a validated argument is); Lanczos3 otherwise.
    static func resamplingKernel(named name: String) -> ResamplingKernel {
        kernels.first { $0.name == name }?.kernel ?? .lanczos3
    }

    /// The argument word for `kernel`.
    static func name(of kernel: ResamplingKernel) -> String {
        kernels.first { $0.kernel == kernel }!.name
    }
}

// MARK: - Kernel names outside filter arguments

extension ResamplingKernel {
    /// The kernel a command-line option names: the word a filter's `kernel` argument takes
    /// (`catmull-rom`), or the case's own name (`catmullRom`).
    ///
    /// ```swift
    /// ResamplingKernel(named: "catmull-rom") // .catmullRom
    /// ResamplingKernel(named: "sinc")        // nil
    /// ```
    public init?(named name: String) {
        guard let kernel = ResizeArguments.kernels.first(where: { $0.name == name })?.kernel ?? Self(rawValue: name)
        else { return nil }
        self = kernel
    }

    /// The words ``init(named:)`` documents: those of a filter's `kernel` argument.
    public static var argumentNames: [String] { ResizeArguments.kernelNames }
}
