import DarkroomCore

// MARK: - TIFF through libgd

/// What libgd 2.3.3 does with TIFF that Darkroom corrects for.
///
/// 1. **Alpha is premultiplied on read.** libgd reads every 2…16-bit TIFF through
///    libtiff's `TIFFReadRGBAImage`, whose output is *associated* (premultiplied) alpha,
///    and stores it as if it were straight. libgd's writer has the mirror bug: it tags
///    alpha as associated but writes straight colours. The decoder un-premultiplies; the
///    encoder premultiplies, so the file is what its tags say. (Grey with unassociated alpha
///    comes through straight; see ``corrected(_:layout:)``.)
/// 3. **Bilevel min-is-black is inverted.** ``corrected(_:layout:)`` inverts it back.
/// 2. **Orientation is half applied on read.** `TIFFReadRGBAImage` resolves the flip part
///    of the Orientation tag but not the transpose. ``remainingOrientation(afterLibgdRead:)``
///    is what is still to do (measured: 1–4 → up, 5 and 7 → transpose, 6 and 8 → transverse).
///
/// ```swift
/// let upright = decoded.applying(TIFFConventions.remainingOrientation(afterLibgdRead: header.orientation))
/// ```
enum TIFFConventions {
    /// The orientation still to apply to libgd's TIFF output to make it upright.
    static func remainingOrientation(afterLibgdRead stored: Orientation) -> Orientation {
        switch stored {
        case .up, .upMirrored, .down, .downMirrored: .up
        case .leftMirrored, .rightMirrored: .leftMirrored
        case .right, .left: .rightMirrored
        }
    }

    /// libgd's TIFF output made right for the file's `layout`: a bilevel min-is-black image
    /// inverted back (libgd reads its bits the wrong way round; min-is-white is right), and
    /// colour un-premultiplied except for grey with unassociated or unspecified alpha, which
    /// libtiff's RGBA reader passes through straight (it premultiplies only RGB, and
    /// associated alpha is stored premultiplied).
    static func corrected(_ image: Image, layout: TIFFLayout?) -> Image {
        guard let layout else { return unpremultiplied(image) }
        if layout.isBilevelMinIsBlack { return inverted(image) }
        if layout.isGreyWithAlpha, layout.extraSample != 1 { return image }
        return unpremultiplied(image)
    }

    /// Colour channels inverted, alpha kept.
    static func inverted(_ image: Image) -> Image {
        image.pixels.withUnsafeBufferPointer { src in
            Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha) { dst in
                var i = 0
                while i < src.count {
                    dst[i] = 255 - src[i]
                    dst[i + 1] = 255 - src[i + 1]
                    dst[i + 2] = 255 - src[i + 2]
                    dst[i + 3] = src[i + 3]
                    i += 4
                }
            }
        }
    }

    /// Straight colours from premultiplied ones: `c · 255 / a`, rounded, capped at 255.
    static func unpremultiplied(_ image: Image) -> Image {
        guard image.hasAlpha else { return image }
        return map(image) { c, a in a == 0 ? 0 : min(255, (c * 255 + a / 2) / a) }
    }

    /// Premultiplied colours from straight ones: `c · a / 255`, rounded.
    static func premultiplied(_ image: Image) -> Image {
        guard image.hasAlpha else { return image }
        return map(image) { c, a in (c * a + 127) / 255 }
    }

    private static func map(_ image: Image, _ channel: (Int, Int) -> Int) -> Image {
        image.pixels.withUnsafeBufferPointer { src in
            Image(width: image.width, height: image.height, hasAlpha: true) { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3])
                    dst[i] = UInt8(channel(Int(src[i]), a))
                    dst[i + 1] = UInt8(channel(Int(src[i + 1]), a))
                    dst[i + 2] = UInt8(channel(Int(src[i + 2]), a))
                    dst[i + 3] = UInt8(a)
                    i += 4
                }
            }
        }
    }
}

// MARK: - Undoing an orientation

extension Orientation {
    /// The orientation that undoes this one (`o.inverse` applied after `o` is `.up`).
    var inverse: Orientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self  // flips, transpose and transverse are their own inverses
        }
    }
}
