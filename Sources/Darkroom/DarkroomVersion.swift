// MARK: - Version

/// Darkroom's version, and the salt that goes into persistent cache keys: bump
/// ``pixelAlgorithms`` whenever a change alters any pixel Darkroom produces.
public enum DarkroomVersion {
    public static let string = "0.1.0"
    /// The version of Darkroom's pixel algorithms (decoders' settings, resampler, filters).
    public static let pixelAlgorithms = 1
}
