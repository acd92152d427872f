import DarkroomCore

// MARK: - PixelRegion

/// Whole-row pixel moves for the geometry filters: cutting a rectangle out of an image and
/// placing an image on a larger canvas. Rows are copied with one block copy each and the
/// canvas is filled by doubling block copies, so there is no per-pixel work.
///
/// ```swift
/// let middle = PixelRegion.copy(of: image, columns: 10..<90, rows: 5..<45)
/// let framed = PixelRegion.place(image, on: PixelSize(width: 120, height: 60), left: 10, top: 5,
///                                background: RGBA(r: 255, g: 255, b: 255))
/// ```
enum PixelRegion {
    /// The pixels of `image` in `columns` × `rows`, which must be non-empty and inside the image.
    /// Returns `image` itself when the region is the whole image.
    static func copy(of image: Image, columns: Range<Int>, rows: Range<Int>) -> Image {
        precondition(!columns.isEmpty && !rows.isEmpty, "empty region")
        precondition(columns.lowerBound >= 0 && columns.upperBound <= image.width, "columns outside the image")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= image.height, "rows outside the image")
        if columns == 0..<image.width && rows == 0..<image.height { return image }
        let rowBytes = columns.count * 4, sourceRowBytes = image.bytesPerRow
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: columns.count, height: rows.count, hasAlpha: image.hasAlpha) { out in
                let from = source.baseAddress! + rows.lowerBound * sourceRowBytes + columns.lowerBound * 4
                for y in 0..<rows.count {
                    (out.baseAddress! + y * rowBytes).initialize(from: from + y * sourceRowBytes, count: rowBytes)
                }
            }
        }
    }

    /// `image` with its top-left corner at (`left`, `top`) of a `size` canvas filled with
    /// `background`; the image must fit. Returns `image` itself when the canvas is its size.
    /// The result has alpha when the image has, or when the background is translucent.
    static func place(_ image: Image, on size: PixelSize, left: Int, top: Int, background: RGBA) -> Image {
        precondition(left >= 0 && top >= 0 && left + image.width <= size.width && top + image.height <= size.height,
                     "image does not fit the canvas")
        if size == image.size { return image }
        let canvasRowBytes = size.width * 4, rowBytes = image.bytesPerRow
        let leftBytes = left * 4, rightBytes = canvasRowBytes - leftBytes - rowBytes
        let hasAlpha = image.hasAlpha || background.a < 255
        return image.pixels.withUnsafeBufferPointer { source in
            Image(width: size.width, height: size.height, hasAlpha: hasAlpha) { out in
                let canvas = out.baseAddress!
                // Rows above the image, then each image row between its borders, then rows below.
                fill(canvas, pixels: top * size.width, with: background)
                for y in 0..<image.height {
                    let row = canvas + (top + y) * canvasRowBytes
                    fill(row, pixels: left, with: background)
                    (row + leftBytes).initialize(from: source.baseAddress! + y * rowBytes, count: rowBytes)
                    fill(row + leftBytes + rowBytes, pixels: rightBytes / 4, with: background)
                }
                let below = top + image.height
                fill(canvas + below * canvasRowBytes, pixels: (size.height - below) * size.width, with: background)
            }
        }
    }

    /// An image of `size` filled with `colour`.
    static func solid(_ size: PixelSize, colour: RGBA) -> Image {
        Image(width: size.width, height: size.height, hasAlpha: colour.a < 255) { out in
            fill(out.baseAddress!, pixels: size.width * size.height, with: colour)
        }
    }

    /// Initialises `pixels` RGBA pixels at `start` to `colour`: one pixel written by hand, then
    /// the filled part copied after itself, doubling each time.
    static func fill(_ start: UnsafeMutablePointer<UInt8>, pixels: Int, with colour: RGBA) {
        guard pixels > 0 else { return }
        start[0] = colour.r; start[1] = colour.g; start[2] = colour.b; start[3] = colour.a
        let total = pixels * 4
        var filled = 4
        while filled < total {
            let chunk = min(filled, total - filled)
            (start + filled).initialize(from: start, count: chunk)
            filled += chunk
        }
    }
}
