import DarkroomCore

// MARK: - overlay

/// `overlay(path, gravity, x, y, opacity, content)` — draws another image (a watermark, a badge) over
/// this one with Porter-Duff "over", straight alpha done right: with `s` the overlay's alpha ×
/// `opacity` and `d` the image's alpha, `alpha = s + d·(1 − s)` and
/// `colour = (cs·s + cd·d·(1 − s)) / alpha`. Parts falling outside the image are clipped; the
/// image keeps its size, and an opaque image stays opaque.
///
/// Placement: `gravity` picks the edge or corner (`center`, `north`, `south`, `east`, `west`,
/// `northeast`, `northwest`, `southeast`, `southwest`; default `southeast`); `x` and `y` move
/// the overlay that many pixels *away from* the gravity's edges (inwards; negative values push
/// it past them). On a centred axis they move it right or down. Centring rounds left/up.
///
/// Because DarkroomFilters cannot read files, the overlay arrives decoded: build the filter
/// from an `Image`, or register ``schema(loadingWith:)`` with a decoder. A path alone does
/// not pin the pixels (the file may change), so the identifier also carries a digest of them:
/// `overlay(content=<16 hex digits>,gravity=southeast,opacity=1,path=logo.png,x=0,y=0)`.
/// The identifier parses back: `content` is an argument too (default `any`), and a digest the
/// file no longer has is refused when the filter is built.
///
/// ```swift
/// let mark = try OverlayFilter(overlay: logo, path: "logo.png", gravity: "southeast", x: 16, y: 16, opacity: 0.6)
/// let stamped = try mark.apply(to: photo)
/// ```
public struct OverlayFilter: ImageFilter {
    /// The filter's name in chains and identifiers: `overlay`.
    public static let name = "overlay"
    /// A one-line description of the filter, for `darkroom list` and the docs.
    public static let summary =
        "Draws an image file over this one (Porter-Duff over) at a gravity with x/y offsets (px) and an opacity."
    /// The declared arguments: `path` (required), `gravity`, `x`, `y`, `opacity` and `content`.
    public static let arguments: [FilterArgument] = [
        FilterArgument(name: "path", kind: .text, summary: "the overlay image file"),
        FilterArgument(
            name: "gravity", kind: .choice(OverlayPlacement.gravities), default: .choice("southeast"),
            summary: "where the overlay sits"),
        FilterArgument(
            name: "x", kind: .integer(-65535...65535), default: .integer(0), unit: "px",
            summary: "horizontal distance from the gravity's edge, inwards (rightwards when centred)"),
        FilterArgument(
            name: "y", kind: .integer(-65535...65535), default: .integer(0), unit: "px",
            summary: "vertical distance from the gravity's edge, inwards (downwards when centred)"),
        FilterArgument(
            name: "opacity", kind: .number(0...1), default: .number(1),
            summary: "multiplies the overlay's alpha: 0 = invisible, 1 = as drawn"),
        FilterArgument(
            name: "content", kind: .text, default: .text(anyContent),
            summary: "the digest of the overlay's pixels the identifier shows; when given, the file must still have them"),
    ]

    /// The `content` argument's default: accept whatever pixels the file has.
    public static let anyContent = "any"
    /// `false`: drawing a translucent overlay twice is not the same as drawing it once.
    public static let isIdempotent = false

    /// The declaration alone, for validating arguments; its factory cannot load files and
    /// throws — use ``schema(loadingWith:)`` to get a working schema.
    public static let declaration = FilterSchema(
        name: name, summary: summary, arguments: arguments, isIdempotent: isIdempotent
    ) { _ in
        throw DarkroomError.noComponent(
            kind: "image loader", detail: "overlay (build its schema with OverlayFilter.schema(loadingWith:))")
    }

    /// The decoded overlay.
    public let overlay: Image
    /// Validated arguments, resolved against ``arguments``.
    public let arguments: FilterArguments
    /// `PixelDigest` of ``overlay``: 16 hex digits.
    public let contentDigest: String

    /// - Parameters:
    ///   - overlay: the decoded overlay image.
    ///   - arguments: values resolved against ``declaration`` (as a schema's factory gets them).
    public init(overlay: Image, arguments: FilterArguments) {
        self.overlay = overlay
        var values = arguments.values
        if case let .text(path)? = values["path"] { values["path"] = .text(Self.normalized(path)) }
        self.arguments = FilterArguments(filter: arguments.filter, values: values)
        self.contentDigest = PixelDigest.hex(of: overlay)
    }

    /// `path` without `.` components and repeated or trailing slashes, so `./logo.png` and
    /// `logo.png` (the same file) share an identifier. `..` is kept: what it means depends on
    /// symbolic links.
    ///
    /// ```swift
    /// OverlayFilter.normalized("./marks//logo.png")  // "marks/logo.png"
    /// ```
    public static func normalized(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` for a bad gravity,
    ///   offset or opacity.
    public init(
        overlay: Image, path: String, gravity: String = "southeast", x: Int = 0, y: Int = 0, opacity: Double = 1
    ) throws {
        let resolved = try Self.declaration.resolve([
            ("path", .text(path)), ("gravity", .text(gravity)), ("x", .integer(x)), ("y", .integer(y)),
            ("opacity", .number(opacity)),
        ])
        self.init(overlay: overlay, arguments: resolved)
    }

    /// The overlay's schema, loading `path` with `load` when a filter is built (once, when a
    /// config is read, not per image).
    ///
    /// ```swift
    /// let schema = OverlayFilter.schema { path in try decoder.decode(try Data(contentsOf: URL(fileURLWithPath: path))) }
    /// let mark = try schema.makeFilter([("path", .text("logo.png")), ("opacity", .number(0.5))])
    /// ```
    public static func schema(loadingWith load: @escaping @Sendable (String) throws -> Image) -> FilterSchema {
        FilterSchema(name: name, summary: summary, arguments: arguments, isIdempotent: isIdempotent) { arguments in
            let expected = arguments.string("content")
            let isDigest = expected.count == 16 && expected.allSatisfy(\.isHexDigit)
            guard expected == anyContent || isDigest else {
                throw DarkroomError.invalidArgument(
                    name: "overlay argument 'content'", value: expected,
                    expected: "16 hex digits (the digest of the file's pixels, as the identifier shows it) or '\(anyContent)'")
            }
            let path = normalized(arguments.string("path"))
            let filter = OverlayFilter(overlay: try load(path), arguments: arguments)
            guard expected == anyContent || expected.lowercased() == filter.contentDigest else {
                throw DarkroomError.invalidArgument(
                    name: "overlay argument 'content'", value: expected,
                    expected: "the digest of \(path)'s pixels, which is now \(filter.contentDigest) (the file has changed, or the digest is mistyped)")
            }
            return filter
        }
    }

    // MARK: - Identifier

    /// The declared arguments plus `content=<digest>`, sorted like every identifier.
    public var identifier: String {
        var values = arguments.values
        values["content"] = .text(contentDigest)
        return Self.declaration.identifier(for: FilterArguments(filter: Self.name, values: values))
    }

    // MARK: - Applying

    /// The base image keeps its size.
    public func outputSize(forInputSize size: PixelSize) -> PixelSize? { size }

    public func apply(to image: Image) throws -> Image {
        let placement = OverlayPlacement(
            gravity: arguments.string("gravity"), x: arguments.int("x"), y: arguments.int("y"),
            canvas: image.size, overlay: overlay.size)
        return OverlayCompositor.over(
            overlay, opacity: Float(arguments.double("opacity")), at: placement, onto: image)
    }
}
