import DarkroomConfig
import DarkroomCore

// MARK: - A small real catalogue for the configuration tests

/// Luma (BT.601) grey; idempotent.
struct GrayscaleFilter: DeclaredFilter {
    static let name = "grayscale"
    static let summary = "Replaces colour by its BT.601 luma."
    static let arguments: [FilterArgument] = []
    static let isIdempotent = true
    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                let p = image.pixels
                let luma = (299 * Int(p[i]) + 587 * Int(p[i + 1]) + 114 * Int(p[i + 2]) + 500) / 1000
                out[i] = UInt8(luma)
                out[i + 1] = UInt8(luma)
                out[i + 2] = UInt8(luma)
                out[i + 3] = p[i + 3]
            }
        }
    }
}

/// Inverts the colour channels; not idempotent (twice is the identity).
struct InvertFilter: DeclaredFilter {
    static let name = "invert"
    static let summary = "Inverts the colour channels."
    static let arguments: [FilterArgument] = []
    static let isIdempotent = false
    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
            for i in 0..<image.pixels.count {
                out[i] = i % 4 == 3 ? image.pixels[i] : 255 - image.pixels[i]
            }
        }
    }
}

/// Nearest-neighbour resize to exactly `width`×`height` (both required).
struct ScaleFilter: DeclaredFilter {
    static let name = "scale"
    static let summary = "Resizes to an exact size (nearest neighbour)."
    static let arguments: [FilterArgument] = [
        FilterArgument(name: "width", kind: .integer(1...16384), unit: "px", summary: "output width"),
        FilterArgument(name: "height", kind: .integer(1...16384), unit: "px", summary: "output height"),
    ]
    static let isIdempotent = true
    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        let w = arguments.int("width")
        let h = arguments.int("height")
        return Image(width: w, height: h, hasAlpha: image.hasAlpha) { out in
            for y in 0..<h {
                let sy = y * image.height / h
                for x in 0..<w {
                    let sx = x * image.width / w
                    for c in 0..<4 { out[(y * w + x) * 4 + c] = image.pixels[(sy * image.width + sx) * 4 + c] }
                }
            }
        }
    }
}

/// Adds `amount` × 255 to every colour channel, clamped; `amount` defaults to 0.
struct BrightnessFilter: DeclaredFilter {
    static let name = "brightness"
    static let summary = "Brightens or darkens."
    static let arguments: [FilterArgument] = [
        FilterArgument(name: "amount", kind: .number(-1...1), default: .number(0), summary: "change, -1…1")
    ]
    static let isIdempotent = false
    let arguments: FilterArguments

    init(arguments: FilterArguments) { self.arguments = arguments }

    func apply(to image: Image) throws -> Image {
        let delta = arguments.double("amount") * 255
        return Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { out in
            for i in 0..<image.pixels.count {
                out[i] = i % 4 == 3 ? image.pixels[i] : UInt8(max(0, min(255, (Double(image.pixels[i]) + delta).rounded())))
            }
        }
    }
}

/// The catalogue the tests pass to the loader, as the registry would.
let catalogue: [String: FilterSchema] = Dictionary(
    uniqueKeysWithValues: [
        FilterSchema(GrayscaleFilter.self), FilterSchema(InvertFilter.self),
        FilterSchema(ScaleFilter.self), FilterSchema(BrightnessFilter.self),
    ].map { ($0.name, $0) })

// MARK: - Helpers

/// Loads in-memory files (name, text) with the test catalogue.
func load(_ files: (String, String)...) -> Configuration {
    ConfigLoader.load(sources: files.map { (name: $0.0, text: $0.1) }, filters: catalogue)
}

/// The diagnostics as the CLI prints them.
func printed(_ configuration: Configuration) -> [String] {
    configuration.diagnostics.map(\.description)
}
