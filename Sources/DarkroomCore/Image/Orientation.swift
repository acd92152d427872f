// MARK: - Orientation

/// The EXIF orientation tag (TIFF tag 274): how the stored pixels must be
/// transformed to appear upright.
///
/// ```swift
/// let upright = stored.applying(.rotate90) // a 40×30 stored image becomes 30×40
/// ```
public enum Orientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left↔right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top↔bottom.
    case downMirrored = 4
    /// 5: mirrored across the top-left/bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// 6: needs a 90° clockwise rotation.
    case right = 6
    /// 7: mirrored across the top-right/bottom-left diagonal (transverse).
    case rightMirrored = 7
    /// 8: needs a 90° counter-clockwise rotation.
    case left = 8

    /// Reads an EXIF value, treating anything outside 1…8 as `.up` (as browsers do).
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// `true` for 5…8: the upright image has width and height swapped.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The size of the upright image given the stored size.
    public func uprightSize(ofStored size: PixelSize) -> PixelSize {
        swapsDimensions ? size.transposed : size
    }

    public var description: String { String(rawValue) }
}

// MARK: - Applying an orientation

extension Image {
    /// The upright image: the stored pixels transformed as `orientation` says.
    /// Returns `self` unchanged for `.up`.
    public func applying(_ orientation: Orientation) -> Image {
        if orientation == .up { return self }
        let w = width, h = height
        let out = orientation.uprightSize(ofStored: size)
        let ow = out.width, oh = out.height
        var turned = pixels.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            return Image(width: ow, height: oh, hasAlpha: hasAlpha) { buffer in
                let dst = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                // For each destination pixel (dx, dy), find its stored source pixel.
                for dy in 0..<oh {
                    let row = dy * ow
                    for dx in 0..<ow {
                        let sx: Int, sy: Int
                        switch orientation {
                        case .up: sx = dx; sy = dy
                        case .upMirrored: sx = w - 1 - dx; sy = dy
                        case .down: sx = w - 1 - dx; sy = h - 1 - dy
                        case .downMirrored: sx = dx; sy = h - 1 - dy
                        case .leftMirrored: sx = dy; sy = dx
                        case .right: sx = dy; sy = h - 1 - dx
                        case .rightMirrored: sx = w - 1 - dy; sy = h - 1 - dx
                        case .left: sx = w - 1 - dy; sy = dx
                        }
                        dst[row + dx] = src[sy * w + sx]
                    }
                }
            }
        }
        turned.shrunkFrom = shrunkFrom.map { orientation.uprightSize(ofStored: $0) }
        return turned
    }
}
