import DarkroomCore
import Testing

// MARK: - ConformanceCase

/// One odd-but-legal file of the conformance corpus: how ImageMagick writes it from the test
/// picture, and what Darkroom is known to make of it.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    /// What Darkroom's decode of the file is, against ImageMagick's.
    enum Outcome: String, Sendable {
        /// The same picture: ≥ 30 dB over RGB composited on grey, and the same size.
        case agrees
        /// Decoded, but a different picture or size.
        case differs
        /// Darkroom throws.
        case refused
    }

    /// A name saying what is odd about the file, e.g. `png-grey-2bit`.
    var name: String
    /// The file's extension, which tells ImageMagick the format.
    var fileExtension: String
    /// ImageMagick's options between the source and the output, e.g. `["-depth", "16"]`.
    var options: [String]
    /// The output's prefix when it names a sub-format (`PNG8:`, `BMP3:`), else "".
    var coder: String = ""
    /// Whether the source picture has translucent pixels.
    var translucent: Bool = false
    /// What Darkroom does with it today; a case that `agrees` and stops agreeing fails the test.
    var expected: Outcome = .agrees
    /// Why a case does not agree (for `Docs/Formats.md`).
    var why: String = ""

    var testDescription: String { name }

    /// The format family the case belongs to (the name's first word).
    var family: String { String(name.prefix { $0 != "-" }) }
}

// MARK: - The corpus

extension ConformanceCase {
    /// Every case: each format's colour types, bit depths, compressions and layouts that
    /// ImageMagick writes.
    static let all: [ConformanceCase] = png + jpeg + webp + gif + bmp + tga + tiff + avif

    static let png: [ConformanceCase] = [
        ConformanceCase(name: "png-rgb8", fileExtension: "png", options: [], coder: "PNG24:"),
        ConformanceCase(name: "png-rgba8", fileExtension: "png", options: [], coder: "PNG32:", translucent: true),
        ConformanceCase(name: "png-rgb16", fileExtension: "png", options: ["-depth", "16"], coder: "PNG48:"),
        ConformanceCase(name: "png-rgba16", fileExtension: "png", options: ["-depth", "16"], coder: "PNG64:", translucent: true),
        ConformanceCase(name: "png-grey8", fileExtension: "png", options: grey + ["-define", "png:color-type=0", "-depth", "8"]),
        ConformanceCase(name: "png-grey16", fileExtension: "png", options: grey + ["-define", "png:color-type=0", "-depth", "16"]),
        ConformanceCase(
            name: "png-grey-4bit", fileExtension: "png",
            options: grey + ["-depth", "4", "-define", "png:color-type=0", "-define", "png:bit-depth=4"]),
        ConformanceCase(
            name: "png-grey-1bit", fileExtension: "png", options: ["-monochrome", "-define", "png:color-type=0", "-define", "png:bit-depth=1"]),
        ConformanceCase(
            name: "png-grey-alpha", fileExtension: "png", options: grey + ["-define", "png:color-type=4"], translucent: true),
        ConformanceCase(name: "png-palette", fileExtension: "png", options: ["-colors", "200"], coder: "PNG8:"),
        ConformanceCase(name: "png-palette-trns", fileExtension: "png", options: [], coder: "PNG8:", translucent: true),
        ConformanceCase(name: "png-palette-4bit", fileExtension: "png", options: ["-colors", "16", "-define", "png:bit-depth=4"], coder: "PNG8:"),
        ConformanceCase(name: "png-interlaced", fileExtension: "png", options: ["-interlace", "PNG"]),
        ConformanceCase(name: "png-interlaced-rgba16", fileExtension: "png", options: ["-interlace", "PNG", "-depth", "16"], coder: "PNG64:", translucent: true),
        ConformanceCase(name: "png-level0", fileExtension: "png", options: ["-quality", "0"]),
        ConformanceCase(name: "png-palette-1bit", fileExtension: "png", options: ["-colors", "2", "-define", "png:bit-depth=1"], coder: "PNG8:"),
        ConformanceCase(name: "png-orientation-6", fileExtension: "png", options: ["-orient", "RightTop"]),
    ]

    static let jpeg: [ConformanceCase] = [
        ConformanceCase(name: "jpeg-420", fileExtension: "jpg", options: ["-quality", "92", "-sampling-factor", "2x2"]),
        ConformanceCase(name: "jpeg-422", fileExtension: "jpg", options: ["-quality", "92", "-sampling-factor", "2x1"]),
        ConformanceCase(name: "jpeg-440", fileExtension: "jpg", options: ["-quality", "92", "-sampling-factor", "1x2"]),
        ConformanceCase(name: "jpeg-444", fileExtension: "jpg", options: ["-quality", "92", "-sampling-factor", "1x1"]),
        ConformanceCase(name: "jpeg-411", fileExtension: "jpg", options: ["-quality", "92", "-sampling-factor", "4x1"]),
        ConformanceCase(name: "jpeg-grey", fileExtension: "jpg", options: grey),
        ConformanceCase(name: "jpeg-progressive", fileExtension: "jpg", options: ["-interlace", "JPEG"]),
        ConformanceCase(name: "jpeg-cmyk", fileExtension: "jpg", options: ["-colorspace", "CMYK"]),
        ConformanceCase(name: "jpeg-q100", fileExtension: "jpg", options: ["-quality", "100"]),
        ConformanceCase(name: "jpeg-q5", fileExtension: "jpg", options: ["-quality", "5"]),
        ConformanceCase(name: "jpeg-restart", fileExtension: "jpg", options: ["-define", "jpeg:restart-interval=1"]),
        ConformanceCase(name: "jpeg-optimized", fileExtension: "jpg", options: ["-define", "jpeg:optimize-coding=true"]),
        ConformanceCase(name: "jpeg-arithmetic", fileExtension: "jpg", options: ["-define", "jpeg:arithmetic-coding=true"]),
        ConformanceCase(name: "jpeg-orientation-6", fileExtension: "jpg", options: ["-orient", "RightTop"]),
        ConformanceCase(name: "jpeg-orientation-3", fileExtension: "jpg", options: ["-orient", "BottomRight"]),
    ]

    static let webp: [ConformanceCase] = [
        ConformanceCase(name: "webp-lossy", fileExtension: "webp", options: ["-quality", "90"]),
        ConformanceCase(name: "webp-lossless", fileExtension: "webp", options: ["-define", "webp:lossless=true"]),
        ConformanceCase(name: "webp-lossy-alpha", fileExtension: "webp", options: ["-quality", "90"], translucent: true),
        ConformanceCase(name: "webp-lossless-alpha", fileExtension: "webp", options: ["-define", "webp:lossless=true"], translucent: true),
        ConformanceCase(name: "webp-lossy-alpha-compressed", fileExtension: "webp", options: ["-quality", "60", "-define", "webp:alpha-quality=50"], translucent: true),
    ]

    static let gif: [ConformanceCase] = [
        ConformanceCase(name: "gif-palette", fileExtension: "gif", options: []),
        ConformanceCase(name: "gif-interlaced", fileExtension: "gif", options: ["-interlace", "GIF"]),
        ConformanceCase(name: "gif-transparent", fileExtension: "gif", options: [], translucent: true),
        ConformanceCase(name: "gif-16-colours", fileExtension: "gif", options: ["-colors", "16"]),
        ConformanceCase(name: "gif-2-colours", fileExtension: "gif", options: ["-monochrome"]),
    ]

    static let bmp: [ConformanceCase] = [
        ConformanceCase(name: "bmp-24bit", fileExtension: "bmp", options: [], coder: "BMP3:"),
        ConformanceCase(name: "bmp-32bit-alpha", fileExtension: "bmp", options: [], translucent: true),
        ConformanceCase(name: "bmp-8bit-palette", fileExtension: "bmp", options: ["-type", "Palette"], coder: "BMP3:"),
        ConformanceCase(name: "bmp-4bit-palette", fileExtension: "bmp", options: ["-colors", "16", "-type", "Palette"], coder: "BMP3:"),
        ConformanceCase(name: "bmp-1bit", fileExtension: "bmp", options: ["-monochrome"], coder: "BMP3:"),
        ConformanceCase(name: "bmp-rle8", fileExtension: "bmp", options: ["-type", "Palette", "-compress", "RLE"], coder: "BMP3:"),
        ConformanceCase(name: "bmp-rgb565", fileExtension: "bmp", options: ["-define", "bmp:subtype=RGB565"]),
        ConformanceCase(name: "bmp-grey", fileExtension: "bmp", options: grey, coder: "BMP3:"),
        ConformanceCase(name: "bmp-rgb555", fileExtension: "bmp", options: ["-define", "bmp:subtype=RGB555"]),
        ConformanceCase(name: "bmp-argb4444", fileExtension: "bmp", options: ["-define", "bmp:subtype=ARGB4444"], translucent: true),
        ConformanceCase(name: "bmp-rle4", fileExtension: "bmp", options: ["-colors", "16", "-type", "Palette", "-compress", "RLE"], coder: "BMP3:"),
    ]

    static let tga: [ConformanceCase] = [
        ConformanceCase(name: "tga-24bit", fileExtension: "tga", options: []),
        ConformanceCase(name: "tga-32bit-alpha", fileExtension: "tga", options: [], translucent: true),
        ConformanceCase(name: "tga-rle", fileExtension: "tga", options: ["-compress", "RLE"]),
        ConformanceCase(name: "tga-rle-alpha", fileExtension: "tga", options: ["-compress", "RLE"], translucent: true),
        ConformanceCase(name: "tga-grey", fileExtension: "tga", options: grey + ["-type", "Grayscale"]),
        ConformanceCase(name: "tga-palette", fileExtension: "tga", options: ["-type", "Palette"]),
        ConformanceCase(name: "tga-palette-rle", fileExtension: "tga", options: ["-type", "Palette", "-compress", "RLE"]),
    ]

    static let tiff: [ConformanceCase] = [
        ConformanceCase(name: "tiff-none", fileExtension: "tiff", options: ["-compress", "None"]),
        ConformanceCase(name: "tiff-lzw", fileExtension: "tiff", options: ["-compress", "LZW"]),
        ConformanceCase(name: "tiff-zip", fileExtension: "tiff", options: ["-compress", "Zip"]),
        ConformanceCase(name: "tiff-packbits", fileExtension: "tiff", options: ["-compress", "RLE"]),
        ConformanceCase(name: "tiff-jpeg", fileExtension: "tiff", options: ["-compress", "JPEG"]),
        ConformanceCase(name: "tiff-alpha", fileExtension: "tiff", options: ["-compress", "LZW"], translucent: true),
        ConformanceCase(name: "tiff-16bit", fileExtension: "tiff", options: ["-depth", "16"]),
        ConformanceCase(name: "tiff-grey", fileExtension: "tiff", options: grey),
        ConformanceCase(name: "tiff-palette", fileExtension: "tiff", options: ["-type", "Palette"]),
        ConformanceCase(name: "tiff-bilevel-g4", fileExtension: "tiff", options: ["-monochrome", "-compress", "Group4"]),
        ConformanceCase(name: "tiff-cmyk", fileExtension: "tiff", options: ["-colorspace", "CMYK"]),
        ConformanceCase(name: "tiff-planar", fileExtension: "tiff", options: ["-interlace", "Plane"]),
        ConformanceCase(name: "tiff-float", fileExtension: "tiff", options: ["-define", "quantum:format=floating-point", "-depth", "32"]),
        ConformanceCase(name: "tiff-float-16", fileExtension: "tiff", options: ["-define", "quantum:format=floating-point", "-depth", "16"]),
        ConformanceCase(
            name: "tiff-float-predictor", fileExtension: "tiff",
            options: ["-define", "quantum:format=floating-point", "-depth", "32", "-define", "tiff:predictor=3", "-compress", "Zip"]),
        ConformanceCase(name: "tiff-predictor", fileExtension: "tiff", options: ["-define", "tiff:predictor=2", "-compress", "Zip"]),
        ConformanceCase(name: "tiff-12bit-grey", fileExtension: "tiff", options: grey + ["-depth", "12"]),
        ConformanceCase(name: "tiff-4bit-grey", fileExtension: "tiff", options: grey + ["-depth", "4"]),
        ConformanceCase(name: "tiff-grey-alpha", fileExtension: "tiff", options: grey, translucent: true),
        ConformanceCase(name: "tiff-palette-4bit", fileExtension: "tiff", options: ["-colors", "16", "-depth", "4", "-type", "Palette"]),
        ConformanceCase(name: "tiff-orientation-6", fileExtension: "tiff", options: ["-orient", "RightTop"]),
        ConformanceCase(name: "tiff-orientation-5", fileExtension: "tiff", options: ["-orient", "LeftTop"]),
        ConformanceCase(name: "tiff-orientation-7", fileExtension: "tiff", options: ["-orient", "RightBottom"]),
        ConformanceCase(
            name: "tiff-g4-orientation-8", fileExtension: "tiff", options: ["-monochrome", "-compress", "Group4", "-orient", "LeftBottom"]),
        ConformanceCase(name: "tiff-lab", fileExtension: "tiff", options: ["-colorspace", "Lab"]),
        ConformanceCase(name: "tiff-lab-16", fileExtension: "tiff", options: ["-colorspace", "Lab", "-depth", "16"]),
        ConformanceCase(name: "tiff-cmyk-16", fileExtension: "tiff", options: ["-colorspace", "CMYK", "-depth", "16"]),
        ConformanceCase(name: "tiff-bigtiff", fileExtension: "tiff", options: [], coder: "TIFF64:"),
        ConformanceCase(name: "tiff-bigtiff-msb", fileExtension: "tiff", options: ["-endian", "MSB"], coder: "TIFF64:"),
        ConformanceCase(name: "tiff-planar-alpha", fileExtension: "tiff", options: ["-interlace", "Plane"], translucent: true),
        ConformanceCase(name: "tiff-tiled-planar", fileExtension: "tiff", options: ["-interlace", "Plane", "-define", "tiff:tile-geometry=64x64"]),
        ConformanceCase(name: "tiff-min-is-white", fileExtension: "tiff", options: grey + ["-define", "tiff:photometric=min-is-white"]),
        ConformanceCase(name: "tiff-tiled", fileExtension: "tiff", options: ["-define", "tiff:tile-geometry=32x32"]),
        ConformanceCase(name: "tiff-multipage", fileExtension: "tiff", options: ["(", "+clone", "-negate", ")"]),
    ]

    static let avif: [ConformanceCase] = [
        ConformanceCase(name: "avif-yuv420", fileExtension: "avif", options: ["-quality", "90"]),
        ConformanceCase(name: "avif-alpha", fileExtension: "avif", options: ["-quality", "90"], translucent: true),
        ConformanceCase(name: "heic-yuv420", fileExtension: "heic", options: ["-quality", "90"]),
    ]

    private static let grey = ["-colorspace", "Gray"]
}
