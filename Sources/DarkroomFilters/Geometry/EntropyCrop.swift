#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import DarkroomCore

// MARK: - EntropyCrop

/// Where `aspect-fill(gravity=entropy)` crops: the window with the most detail, as sharp's
/// `strategy.entropy` and imgproxy's and thumbor's smart crops aim for. The image is
/// box-averaged into a luma map at most ``mapSide`` pixels on its long side; windows of the
/// kept size slide along each axis with room to move, and the one whose luma histogram has the
/// highest Shannon entropy wins (ties go to the one nearest the centre, so a flat image is
/// cropped in the middle as `center` would).
///
/// ```swift
/// let (left, top) = EntropyCrop.origin(in: photo, scaled: PixelSize(width: 300, height: 128),
///                                      kept: PixelSize(width: 128, height: 128))
/// ```
enum EntropyCrop {
    /// The luma map's long side: detail coarser than 1/128 of the image decides the crop.
    static let mapSide = 128
    /// Histogram bins (luma / 4).
    static let bins = 64

    /// The top-left corner, in `scaled` coordinates, of the `kept` window of `image` resized to
    /// `scaled` that holds the most detail.
    static func origin(in image: Image, scaled: PixelSize, kept: PixelSize) -> (left: Int, top: Int) {
        let freeX = scaled.width - kept.width, freeY = scaled.height - kept.height
        guard freeX > 0 || freeY > 0 else { return (0, 0) }
        let map = LumaMap(image)
        // aspect-fill leaves room on one axis only; a coarser grid keeps any other case cheap.
        let steps = freeX > 0 && freeY > 0 ? 9 : 33
        let lefts = candidates(free: freeX, steps: steps), tops = candidates(free: freeY, steps: steps)
        var best = (left: freeX >> 1, top: freeY >> 1, entropy: -1.0, distance: Int.max)
        for top in tops {
            for left in lefts {
                let entropy = map.entropy(
                    x: map.scale(left, of: scaled.width, axisLength: map.width),
                    y: map.scale(top, of: scaled.height, axisLength: map.height),
                    width: max(1, map.scale(kept.width, of: scaled.width, axisLength: map.width)),
                    height: max(1, map.scale(kept.height, of: scaled.height, axisLength: map.height)))
                let distance = abs(2 * left - freeX) + abs(2 * top - freeY)
                if entropy > best.entropy + 1e-9 || (abs(entropy - best.entropy) <= 1e-9 && distance < best.distance) {
                    best = (left, top, entropy, distance)
                }
            }
        }
        return (best.left, best.top)
    }

    /// Offsets `0 … free` in `steps` even steps (every offset when there are fewer).
    static func candidates(free: Int, steps: Int) -> [Int] {
        guard free > 0 else { return [0] }
        let count = min(free + 1, steps)
        return (0..<count).map { Int((Double($0) * Double(free) / Double(count - 1)).rounded()) }
    }

    // MARK: - The luma map

    /// The image box-averaged to at most ``mapSide`` pixels on its long side, as histogram bins.
    struct LumaMap {
        let width: Int, height: Int
        let bins: [UInt8]

        init(_ image: Image) {
            let long = max(image.width, image.height)
            let factor = max(1, (long + mapSide - 1) / mapSide)
            let width = max(1, image.width / factor), height = max(1, image.height / factor)
            var map = [UInt8](repeating: 0, count: width * height)
            image.pixels.withUnsafeBufferPointer { pixels in
                for my in 0..<height {
                    for mx in 0..<width {
                        var sum = 0, count = 0
                        for y in (my * factor)..<min(image.height, (my + 1) * factor) {
                            var i = (y * image.width + mx * factor) * 4
                            for _ in (mx * factor)..<min(image.width, (mx + 1) * factor) {
                                // Rec. 709 luma in 8.8 fixed point.
                                sum += 54 * Int(pixels[i]) + 183 * Int(pixels[i + 1]) + 19 * Int(pixels[i + 2])
                                count += 1
                                i += 4
                            }
                        }
                        map[my * width + mx] = UInt8((sum / (256 * max(1, count))) * EntropyCrop.bins / 256)
                    }
                }
            }
            self.width = width
            self.height = height
            self.bins = map
        }

        /// `offset` on an axis `total` long, in map pixels.
        func scale(_ offset: Int, of total: Int, axisLength: Int) -> Int {
            min(axisLength, Int((Double(offset) * Double(axisLength) / Double(total)).rounded()))
        }

        /// The Shannon entropy (bits) of the bins in the window, clipped to the map.
        func entropy(x: Int, y: Int, width w: Int, height h: Int) -> Double {
            var histogram = [Int](repeating: 0, count: EntropyCrop.bins)
            let x0 = min(x, width - 1), y0 = min(y, height - 1)
            let x1 = min(width, x0 + w), y1 = min(height, y0 + h)
            for row in y0..<y1 {
                for column in x0..<x1 { histogram[Int(bins[row * width + column])] += 1 }
            }
            let total = Double((x1 - x0) * (y1 - y0))
            return histogram.reduce(0.0) { sum, count in
                guard count > 0 else { return sum }
                let p = Double(count) / total
                return sum - p * log2(p)
            }
        }
    }
}
