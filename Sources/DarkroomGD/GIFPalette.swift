import CGD
import DarkroomCore

// MARK: - GIFPalette

/// Turns an RGBA8 image into the palette gd image a GIF needs.
///
/// - Pixels with alpha below 128 become one fully transparent palette entry (GIF has
///   1-bit transparency); the rest are treated as opaque.
/// - With at most 256 distinct colours (255 when some pixel is transparent) the palette
///   is **exact**: every colour kept as is, so graphics and already-paletted images
///   round-trip losslessly.
/// - Otherwise libgd's quantiser (`gdImageTrueColorToPalette`, no dithering) picks
///   255/256 colours.
///
/// ```swift
/// let im = try GIFPalette.paletteImage(from: image)
/// defer { dr_gdImageDestroy(im) }
/// ```
enum GIFPalette {
    static func paletteImage(from image: Image) throws -> gdImagePtr {
        let analysis = analyse(image)
        let opaqueLimit = analysis.hasTransparentPixels ? 255 : 256
        let im: gdImagePtr
        if let exact = analysis.exact, exact.colors.count <= opaqueLimit {
            im = try exactPaletteImage(image, colors: exact.colors, indices: exact.indices)
        } else {
            im = try quantisedPaletteImage(image, colors: Int32(opaqueLimit))
        }
        if analysis.hasTransparentPixels {
            do {
                try markTransparentPixels(of: image, in: im)
            } catch {
                dr_gdImageDestroy(im)
                throw error
            }
        }
        return im
    }

    // MARK: - Looking at the colours

    private struct Analysis {
        var hasTransparentPixels = false
        /// The distinct opaque colours (0x00BBGGRR) and each pixel's index, or `nil` past 256.
        var exact: (colors: [UInt32], indices: [UInt8])?
    }

    private static func analyse(_ image: Image) -> Analysis {
        var analysis = Analysis()
        var lookup: [UInt32: UInt8] = [:]
        var colors: [UInt32] = []
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        var overflowed = false
        image.pixels.withUnsafeBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            var lastColor: UInt32 = .max, lastIndex: UInt8 = 0
            for i in 0..<pixels.count {
                let p = UInt32(littleEndian: pixels[i])
                if p >> 24 < 128 {
                    analysis.hasTransparentPixels = true
                    continue
                }
                if overflowed { continue }
                let rgb = p & 0x00FF_FFFF
                if rgb != lastColor {
                    if let known = lookup[rgb] {
                        lastIndex = known
                    } else if colors.count < 256 {
                        lastIndex = UInt8(colors.count)
                        lookup[rgb] = lastIndex
                        colors.append(rgb)
                    } else {
                        overflowed = true
                        continue
                    }
                    lastColor = rgb
                }
                indices[i] = lastIndex
            }
        }
        if !overflowed { analysis.exact = (colors, indices) }
        return analysis
    }

    // MARK: - Building the gd image

    private static func exactPaletteImage(_ image: Image, colors: [UInt32], indices: [UInt8]) throws -> gdImagePtr {
        guard let im = dr_gdImageCreate(Int32(image.width), Int32(image.height)) else {
            throw DarkroomError.encodeFailed(.gif, detail: "libgd cannot allocate a \(image.size) palette image")
        }
        for rgb in colors {
            _ = dr_gdImageColorAllocate(im, Int32(rgb & 0xFF), Int32(rgb >> 8 & 0xFF), Int32(rgb >> 16 & 0xFF))
        }
        indices.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                let row = im.pointee.pixels[y]!
                row.update(from: source.baseAddress! + y * image.width, count: image.width)
            }
        }
        return im
    }

    private static func quantisedPaletteImage(_ image: Image, colors: Int32) throws -> gdImagePtr {
        let opaque = try Image(width: image.width, height: image.height, pixels: image.pixels, hasAlpha: false)
        let im = try GDPixelConversion.trueColorImage(from: opaque, format: .gif)
        // Quantise colour only: make every pixel opaque first.
        for y in 0..<image.height {
            let row = im.pointee.tpixels[y]!
            for x in 0..<image.width { row[x] &= 0x00FF_FFFF }
        }
        let (converted, messages) = GDDiagnostics.capturing { dr_gdImageTrueColorToPalette(im, 0, colors) }
        guard converted != 0, im.pointee.trueColor == 0 else {
            dr_gdImageDestroy(im)
            throw DarkroomError.encodeFailed(
                .gif, detail: GDDiagnostics.detail(messages, fallback: "libgd could not reduce the image to a palette"))
        }
        return im
    }

    /// Adds one transparent entry and points every pixel with alpha < 128 at it.
    private static func markTransparentPixels(of image: Image, in im: gdImagePtr) throws {
        let index = dr_gdImageColorAllocate(im, 0, 0, 0)
        guard index >= 0 else {
            throw DarkroomError.encodeFailed(.gif, detail: "no palette entry left for transparency")
        }
        dr_gdImageColorTransparent(im, index)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                let row = im.pointee.pixels[y]!
                let base = y * image.width * 4
                for x in 0..<image.width where p[base + x * 4 + 3] < 128 {
                    row[x] = UInt8(index)
                }
            }
        }
    }
}
