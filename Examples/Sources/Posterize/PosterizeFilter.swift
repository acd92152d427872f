import Darkroom

// MARK: - PosterizeFilter

/// `posterize(levels)` — keeps `levels` evenly spaced values of each colour channel (alpha is
/// unchanged), as ImageMagick's `-posterize`. A complete filter of your own module: its
/// arguments are declared as data, so validation, `darkroom list`, `check`'s `file:line`
/// errors and the cache key (`posterize(levels=4)`) all come from the declaration.
///
/// ```toml
/// [variants.poster]
/// filters = [ { filter = "posterize", levels = 4 } ]
/// ```
public struct PosterizeFilter: DeclaredFilter {
    public static let name = "posterize"
    public static let summary = "Keeps a few evenly spaced values of each colour channel."
    public static let arguments: [FilterArgument] = [
        FilterArgument(name: "levels", kind: .integer(2...255), default: .integer(4), summary: "values each channel keeps"),
    ]
    public static let isIdempotent = true
    public static let preservesSize = true

    /// The values this filter was made with (`arguments.int("levels")`).
    public let arguments: FilterArguments

    public init(arguments: FilterArguments) { self.arguments = arguments }

    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` outside 2…255.
    public init(levels: Int = 4) throws { self = try Self.make([("levels", .integer(levels))]) }

    public func apply(to image: Image) throws -> Image {
        let steps = Double(arguments.int("levels") - 1)
        let level = (0...255).map { UInt8((Double($0) * steps / 255).rounded() * 255 / steps) }
        return image.mappingPixels { p in
            RGBA(r: level[Int(p.r)], g: level[Int(p.g)], b: level[Int(p.b)], a: p.a)
        }
    }
}

// MARK: - Registering

extension FilterStep {
    /// `posterize` as a typed step: `try photo.applying(.posterize(levels: 4))`.
    public static func posterize(levels: Int = 4) -> Self { Self { try PosterizeFilter(levels: levels) } }
}

/// The filters of this module, for an app's registry.
public enum PosterizeFilters {
    /// Adds `posterize` to `registry`: `var registry = Registry.standard; PosterizeFilters.register(in: &registry)`.
    public static func register(in registry: inout Registry) {
        registry.register(filter: PosterizeFilter.self, origin: "Posterize")
    }
}
