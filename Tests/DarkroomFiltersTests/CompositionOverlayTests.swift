import DarkroomCore
import DarkroomFilters
import DarkroomTestSupport
import Synchronization
import Testing

// MARK: - Helpers

private let grey = constantImage(10, 8, RGBA(r: 100, g: 100, b: 100), alpha: false)
private let red = constantImage(2, 2, RGBA(r: 255, g: 0, b: 0), alpha: false)

/// The bounding box of the pixels that differ between two images of one size.
private func changedBox(_ a: Image, _ b: Image) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
    var xs: [Int] = [], ys: [Int] = []
    for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { xs.append(x); ys.append(y) } }
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
    return (x0...x1, y0...y1)
}

// MARK: - Placement

@Suite("Overlay lands where its gravity and offsets say")
struct CompositionOverlayPlacementTests {
    /// Canvas 10×8, overlay 2×2, x = 1, y = 2: free space 8×6, centred = (4, 3);
    /// offsets move away from the gravity's edges, or right/down on a centred axis.
    @Test("each gravity", arguments: [
        ("center", 5, 5), ("north", 5, 2), ("south", 5, 4), ("east", 7, 5), ("west", 1, 5),
        ("northeast", 7, 2), ("northwest", 1, 2), ("southeast", 7, 4), ("southwest", 1, 4),
    ])
    func gravity(name: String, left: Int, top: Int) throws {
        let out = try OverlayFilter(overlay: red, path: "red.png", gravity: name, x: 1, y: 2).apply(to: grey)
        let box = try #require(changedBox(out, grey))
        #expect(box.x == left...(left + 1) && box.y == top...(top + 1), "\(name): \(box)")
        #expect(out.pixel(x: left, y: top) == RGBA(r: 255, g: 0, b: 0))
    }

    @Test("the default is southeast with no offset")
    func defaults() throws {
        let out = try OverlayFilter(overlay: red, path: "red.png").apply(to: grey)
        let box = try #require(changedBox(out, grey))
        #expect(box.x == 8...9 && box.y == 6...7)
    }

    @Test("parts outside the canvas are clipped; an overlay that misses changes nothing")
    func clipping() throws {
        let big = constantImage(4, 4, RGBA(r: 0, g: 0, b: 255), alpha: false)
        let out = try OverlayFilter(overlay: big, path: "b.png", gravity: "northwest", x: -2, y: -3).apply(to: grey)
        let box = try #require(changedBox(out, grey))
        #expect(box.x == 0...1 && box.y == 0...0)
        #expect(out.width == 10 && out.height == 8)
        let missed = try OverlayFilter(overlay: big, path: "b.png", gravity: "west", x: 100).apply(to: grey)
        #expect(missed == grey)
    }
}

// MARK: - Blending

@Suite("Overlay blends with Porter-Duff over on straight alpha")
struct CompositionOverlayBlendTests {
    @Test("opacity mixes an opaque overlay into an opaque canvas")
    func opacity() throws {
        // 0.4·255 + 0.6·100 = 162; 0.6·100 = 60
        let out = try OverlayFilter(overlay: red, path: "r", gravity: "northwest", opacity: 0.4).apply(to: grey)
        #expect(maxDifference(Image.first(of: out), [162, 60, 60, 255]) <= 1)
        #expect(!out.hasAlpha)
    }

    @Test("a translucent overlay over an opaque canvas keeps the canvas opaque")
    func translucentOverOpaque() throws {
        // α 51 = 0.2: 0.2·255 + 0.8·100 = 131; 0.8·100 = 80
        let overlay = constantImage(1, 1, RGBA(r: 255, g: 0, b: 0, a: 51), alpha: true)
        let out = try OverlayFilter(overlay: overlay, path: "r", gravity: "northwest").apply(to: grey)
        #expect(maxDifference(Image.first(of: out), [131, 80, 80, 255]) <= 1)
    }

    @Test("translucent over translucent follows the straight-alpha over formula")
    func translucentOverTranslucent() throws {
        // s = d = 128/255: alpha = s + d(1 − s) = 0.7520 → 191.7; red = 255·s/alpha = 170.2,
        // blue = 255·d(1 − s)/alpha = 84.8
        let canvas = constantImage(3, 3, RGBA(r: 0, g: 0, b: 255, a: 128), alpha: true)
        let overlay = constantImage(1, 1, RGBA(r: 255, g: 0, b: 0, a: 128), alpha: true)
        let out = try OverlayFilter(overlay: overlay, path: "r", gravity: "center").apply(to: canvas)
        #expect(maxDifference(makeImage(1, 1, Array(out.pixels[16..<20])), [170, 0, 85, 192]) <= 1)
        #expect(out.pixel(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 255, a: 128))
    }

    @Test("over a transparent pixel the overlay appears as it is; opacity 0 changes nothing")
    func transparentCanvas() throws {
        let canvas = constantImage(2, 2, RGBA(r: 9, g: 9, b: 9, a: 0), alpha: true)
        let overlay = constantImage(1, 1, RGBA(r: 255, g: 0, b: 0, a: 128), alpha: true)
        let out = try OverlayFilter(overlay: overlay, path: "r", gravity: "northwest").apply(to: canvas)
        #expect(out.pixel(x: 0, y: 0) == RGBA(r: 255, g: 0, b: 0, a: 128))
        #expect(try OverlayFilter(overlay: overlay, path: "r", opacity: 0).apply(to: canvas) == canvas)
    }
}

// MARK: - Identifier and schema

@Suite("Overlay identifiers pin the overlay's pixels")
struct CompositionOverlayIdentifierTests {
    @Test("the identifier carries a content digest in sorted position")
    func digest() throws {
        let pixel = makeImage(1, 1, [1, 2, 3, 4])
        // FNV-1a 64 over width and height (8 bytes each, little-endian) and the pixel bytes.
        let filter = try OverlayFilter(overlay: pixel, path: "logo.png", x: 4, opacity: 0.5)
        #expect(filter.identifier == "overlay(content=72f1aab31b792d7d,gravity=southeast,opacity=0.5,path=logo.png,x=4,y=0)")
    }

    @Test("same path, different pixels: different identifiers; same pixels: the same")
    func distinct() throws {
        let a = try OverlayFilter(overlay: red, path: "logo.png")
        let b = try OverlayFilter(overlay: constantImage(2, 2, RGBA(r: 254, g: 0, b: 0), alpha: false), path: "logo.png")
        let c = try OverlayFilter(overlay: constantImage(2, 2, RGBA(r: 255, g: 0, b: 0), alpha: false), path: "logo.png")
        #expect(a.identifier != b.identifier)
        #expect(a.identifier == c.identifier)
        // Same bytes, different shape.
        let wide = try OverlayFilter(overlay: constantImage(4, 1, RGBA(r: 255, g: 0, b: 0), alpha: false), path: "logo.png")
        #expect(wide.identifier != a.identifier)
    }

    @Test("the schema loads the path with the given loader and validates the rest")
    func schema() throws {
        let schema = StandardFilters.overlaySchema { path in
            guard path == "logo.png" else { throw DarkroomError.io(path: path, detail: "no such file") }
            return red
        }
        let filter = try schema.makeFilter(FilterSpec(parsing: "overlay(path=logo.png,gravity=north,opacity=0.25)").pairs)
        #expect(filter.identifier.hasPrefix("overlay(content="))
        #expect(filter.identifier.hasSuffix(",gravity=north,opacity=0.25,path=logo.png,x=0,y=0)"))
        #expect(throws: DarkroomError.io(path: "missing.png", detail: "no such file")) {
            try schema.makeFilter([("path", .text("missing.png"))])
        }
        #expect { try schema.makeFilter([("path", .text("logo.png")), ("gravity", .text("up"))]) } throws: { error in
            "\(error)".contains("one of center, north, south, east, west, northeast, northwest, southeast, southwest")
        }
        #expect(throws: DarkroomError.self) { try OverlayFilter.declaration.makeFilter([("path", .text("logo.png"))]) }
    }
}

@Suite("An overlay identifier parses back into the same filter while the file is unchanged")
struct CompositionOverlayRoundTripTests {
    static let schema = StandardFilters.overlaySchema { _ in red }

    @Test("the identifier, content digest included, builds an equal filter")
    func roundTrip() throws {
        let filter = try Self.schema.makeFilter(FilterSpec(parsing: "overlay(path=logo.png,opacity=0.5)").pairs)
        let again = try Self.schema.makeFilter(FilterSpec(parsing: filter.identifier).pairs)
        #expect(again.identifier == filter.identifier)
    }

    @Test("a content digest the file no longer has is refused, naming both")
    func changedFile() throws {
        let filter = try #require(try Self.schema.makeFilter([("path", .text("logo.png"))]) as? OverlayFilter)
        #expect { try Self.schema.makeFilter(FilterSpec(parsing: "overlay(content=0123456789abcdef,path=logo.png)").pairs) } throws: { error in
            "\(error)".contains("0123456789abcdef") && "\(error)".contains(filter.contentDigest)
        }
    }

    @Test("a content value that is no digest at all is refused as such, without loading the file")
    func malformedDigest() throws {
        let loads = Mutex(0)
        let schema = StandardFilters.overlaySchema { _ in loads.withLock { $0 += 1 }; return red }
        #expect { try schema.makeFilter(FilterSpec(parsing: "overlay(content=abc,path=logo.png)").pairs) } throws: { error in
            "\(error)".contains("16 hex digits") && !"\(error)".contains("has changed")
        }
        #expect(loads.withLock { $0 } == 0)
    }

    @Test("spellings of one path share an identifier and load the same file", arguments: [
        ("./logo.png", "logo.png"), ("marks//logo.png", "marks/logo.png"), ("./marks/./logo.png/", "marks/logo.png"),
        ("/srv//marks/logo.png", "/srv/marks/logo.png"), ("../logo.png", "../logo.png"),
    ])
    func normalizedPath(written: String, canonical: String) throws {
        let loaded = Mutex<[String]>([])
        let schema = StandardFilters.overlaySchema { path in loaded.withLock { $0.append(path) }; return red }
        let filter = try schema.makeFilter([("path", .text(written))])
        #expect(filter.identifier == (try schema.makeFilter([("path", .text(canonical))])).identifier)
        #expect(filter.identifier.contains("path=\(FilterValue.text(canonical).canonicalText)"))
        #expect(loaded.withLock { $0 } == [canonical, canonical])
    }
}
