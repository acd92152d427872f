import DarkroomCore

// MARK: - OverlayPlacement

/// Where an overlay's top-left corner lands on the canvas for a gravity and x/y offsets, and
/// which part of it is visible.
///
/// ```swift
/// let p = OverlayPlacement(gravity: "southeast", x: 10, y: 10,
///                          canvas: PixelSize(width: 100, height: 80), overlay: PixelSize(width: 20, height: 20))
/// (p.left, p.top) // (70, 50)
/// ```
struct OverlayPlacement: Sendable, Equatable {
    static let gravities = ["center", "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]

    /// The overlay's top-left corner in canvas coordinates (may be outside the canvas).
    let left: Int
    let top: Int
    /// The visible rectangle, in canvas coordinates (empty when the overlay misses the canvas).
    let visibleColumns: Range<Int>
    let visibleRows: Range<Int>

    init(gravity: String, x: Int, y: Int, canvas: PixelSize, overlay: PixelSize) {
        let freeX = canvas.width - overlay.width, freeY = canvas.height - overlay.height
        if gravity.hasSuffix("west") {
            left = x
        } else if gravity.hasSuffix("east") {
            left = freeX - x
        } else {
            left = (freeX >> 1) + x  // >> rounds towards −∞, so centring rounds left
        }
        if gravity.hasPrefix("north") {
            top = y
        } else if gravity.hasPrefix("south") {
            top = freeY - y
        } else {
            top = (freeY >> 1) + y
        }
        let columnStart = max(0, left), columnEnd = min(canvas.width, left + overlay.width)
        let rowStart = max(0, top), rowEnd = min(canvas.height, top + overlay.height)
        visibleColumns = columnStart..<max(columnStart, columnEnd)
        visibleRows = rowStart..<max(rowStart, rowEnd)
    }
}
