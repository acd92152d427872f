// MARK: - Sizes and durations in config files

/// Parses sizes written like `"100MB"` and durations like `"30d"`.
///
/// Sizes: a number and a unit — `B`, `KB`, `MB`, `GB`, `TB` (powers of 1024, as in
/// AlamofireImage's "100 MB" and nginx; `KiB`, `MiB`, `GiB`, `TiB` mean the same) — or a plain
/// integer of bytes. Durations: a number and `ms`, `s`, `m`, `h`, `d` or `w`, or a plain number of seconds.
///
/// ```swift
/// ConfigQuantity.bytes("1.5GB")   // 1_610_612_736
/// ConfigQuantity.seconds("30d")   // 2_592_000
/// ConfigQuantity.seconds("200ms") // 0.2
/// ```
public enum ConfigQuantity {
    /// The number of bytes, or `nil` when the text is not a size.
    public static func bytes(_ text: String) -> Int? {
        let k = 1024.0
        let units: [(String, Double)] = [
            ("tib", k * k * k * k), ("gib", k * k * k), ("mib", k * k), ("kib", k),
            ("tb", k * k * k * k), ("gb", k * k * k), ("mb", k * k), ("kb", k), ("b", 1),
        ]
        return scaled(text, units: units).flatMap { $0 >= 0 && $0 < 9e18 ? Int($0.rounded()) : nil }
    }

    /// The number of seconds, or `nil` when the text is not a duration.
    public static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [
            ("ms", 0.001), ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
        ]
        return scaled(text, units: units).flatMap { $0 >= 0 ? $0 : nil }
    }

    private static func scaled(_ text: String, units: [(String, Double)]) -> Double? {
        let t = text.lowercased().filter { $0 != " " && $0 != "_" }
        for (unit, factor) in units where t.hasSuffix(unit) {
            guard let number = Double(t.dropLast(unit.count)), number.isFinite else { return nil }
            return number * factor
        }
        return Double(t).flatMap { $0.isFinite ? $0 : nil }
    }
}
