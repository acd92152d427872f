// MARK: - FilterOutputLimit

/// The largest image a filter may make. Two bounds apply:
/// - every filter's own, ``maxPixels`` (the decoders' default pixel limit,
///   ``DecodeLimits/defaultMaxPixels``, 100 megapixels), so that a chain of arguments each in
///   its range (`extend` by 16,384 on every side, twice) cannot ask for gigabytes; filters that
///   make an image larger than their input (resizes, `extend`, `pad`, `rotate`) check it before
///   allocating their output;
/// - the configured pixel limit (`[limits] max-pixels`, `--max-pixels`,
///   ``DecodeLimits/maxPixels``), which the renderers hold every filter's output to as they
///   hold the source to it (``ImageFilter/applyToEveryFrame(of:maxPixels:)``,
///   ``FilterChain/checkOutputSizes(forSourceSize:frames:maxPixels:)``), so a server limited to
///   4 megapixels does not enlarge a thumbnail to 56.
///
/// ```swift
/// try FilterOutputLimit.check(PixelSize(width: 33_068, height: 32_968), filter: "extend")
/// // throws: invalid extend output '33068×32968 (1090.2 megapixels)': expected at most 100 megapixels
/// try FilterOutputLimit.check(PixelSize(width: 9_166, height: 6_111), filter: "aspect-fit", maxPixels: 4_000_000)
/// // throws: invalid aspect-fit output '9166×6111 (56 megapixels)': expected at most 4 megapixels (max-pixels)
/// ```
public enum FilterOutputLimit {
    /// Most pixels of a filter's output, whatever the configuration.
    public static let maxPixels = DecodeLimits.defaultMaxPixels

    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming `filter` when
    ///   `size` holds more than ``maxPixels`` pixels.
    public static func check(_ size: PixelSize, filter: String) throws {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= maxPixels else {
            throw DarkroomError.invalidArgument(
                name: "\(filter) output", value: describe(size, frames: 1),
                expected: "at most \(maxPixels / 1_000_000) megapixels")
        }
    }

    /// Holds a filter's output of `frames` frames of `size` to a configured limit of
    /// `maxPixels` pixels in all (the sum over an animation's frames, as the decoders count).
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` naming `filter` and
    ///   the `max-pixels` limit when the output holds more.
    public static func check(
        _ size: PixelSize, frames: Int = 1, filter: @autoclosure () -> String, maxPixels: Int
    ) throws {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        let (total, overflowAll) = pixels.multipliedReportingOverflow(by: max(1, frames))
        guard overflow || overflowAll || total > maxPixels else { return }
        throw DarkroomError.invalidArgument(
            name: "\(filter()) output", value: describe(size, frames: frames),
            expected: "at most \(pixelText(maxPixels)) (max-pixels)")
    }

    // MARK: - Text

    /// "9166×6111 (56 megapixels)", "600×500 (300000 pixels)" under a megapixel, or for an
    /// animation "24 frames of 9166×6111 (1344.4 megapixels)".
    private static func describe(_ size: PixelSize, frames: Int) -> String {
        let prefix = frames > 1 ? "\(frames) frames of " : ""
        let pixels = Double(size.width) * Double(size.height) * Double(max(1, frames))
        guard pixels >= 1_000_000 else { return "\(prefix)\(size.width)×\(size.height) (\(Int(pixels)) pixels)" }
        let megapixels = (pixels / 100_000).rounded() / 10
        let amount = megapixels == megapixels.rounded() && megapixels < 1e15 ? String(Int(megapixels)) : String(megapixels)
        return "\(prefix)\(size.width)×\(size.height) (\(amount) megapixels)"
    }

    /// "4 megapixels" and "2.5 megapixels" for limits in whole tenths of a megapixel, else the
    /// exact count ("262144 pixels"), so the limit is never rounded away.
    private static func pixelText(_ pixels: Int) -> String {
        guard pixels >= 100_000, pixels % 100_000 == 0 else { return "\(pixels) pixel\(pixels == 1 ? "" : "s")" }
        let tenths = pixels / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) megapixels" : "\(tenths / 10).\(tenths % 10) megapixels"
    }
}
