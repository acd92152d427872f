import DarkroomCore

// MARK: - Gravity

/// Which part of a larger area a smaller one sits against: an edge, a corner or the centre.
/// `aspect-fill` uses it to pick the part of the scaled image it keeps, `pad` to place the
/// image on its canvas. Centring rounds left and up: an odd leftover pixel goes to the right
/// or bottom, as in ``CircleFilter``.
///
/// ```swift
/// Gravity.southeast.origin(of: PixelSize(width: 20, height: 10), in: PixelSize(width: 100, height: 80))
/// // (left: 80, top: 70)
/// ```
enum Gravity: String, Sendable, CaseIterable {
    case center, north, south, east, west, northeast, northwest, southeast, southwest

    /// The words a `gravity` argument accepts, in declaration order.
    static let names = allCases.map(\.rawValue)

    /// The gravity named `name` (one of ``names``, as a validated argument is); centre otherwise.
    init(named name: String) {
        self = Gravity(rawValue: name) ?? .center
    }

    /// The top-left corner of an `inner` area placed in `outer` at this gravity. Both offsets
    /// are in `0 … outer − inner` when `inner` fits.
    func origin(of inner: PixelSize, in outer: PixelSize) -> (left: Int, top: Int) {
        let freeX = outer.width - inner.width, freeY = outer.height - inner.height
        let left: Int
        switch self {
        case .west, .northwest, .southwest: left = 0
        case .east, .northeast, .southeast: left = freeX
        case .center, .north, .south: left = freeX >> 1
        }
        let top: Int
        switch self {
        case .north, .northeast, .northwest: top = 0
        case .south, .southeast, .southwest: top = freeY
        case .center, .east, .west: top = freeY >> 1
        }
        return (left, top)
    }
}
