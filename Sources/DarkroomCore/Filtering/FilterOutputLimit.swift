// MARK: - FilterOutputLimit

/// The largest image a filter may make: the decoders' default pixel limit
/// (``DecodeLimits/defaultMaxPixels``, 100 megapixels), so that a chain of arguments each in
/// its range (`extend` by 16,384 on every side, twice) cannot ask for gigabytes.
///
/// Filters that make an image larger than their input (resizes, `extend`, `pad`, `rotate`)
/// check their output size before allocating it.
///
/// ```swift
/// try FilterOutputLimit.check(PixelSize(width: 33_068, height: 32_968), filter: "extend")
/// // throws: invalid extend output '33068×32968 (1090.2 megapixels)': expected at most 100 megapixels
/// ```
public enum FilterOutputLimit {
    /// Most pixels of a filter's output.
    public static let maxPixels = DecodeLimits.defaultMaxPixels

    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming `filter` when
    ///   `size` holds more than ``maxPixels`` pixels.
    public static func check(_ size: PixelSize, filter: String) throws {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= maxPixels else {
            let megapixels = (Double(size.width) * Double(size.height) / 100_000).rounded() / 10
            throw DarkroomError.invalidArgument(
                name: "\(filter) output", value: "\(size.width)×\(size.height) (\(megapixels) megapixels)",
                expected: "at most \(maxPixels / 1_000_000) megapixels")
        }
    }
}
