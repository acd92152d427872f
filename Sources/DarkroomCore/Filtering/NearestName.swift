// MARK: - Nearest name

/// Suggests the closest known name for a misspelt one ("did you mean …?").
///
/// ```swift
/// NearestName.suggestion(for: "aspectfill", among: ["aspect-fill", "aspect-fit"]) // "aspect-fill"
/// ```
public enum NearestName {
    /// The known name with the smallest edit distance, if it is close enough to be a typo
    /// (at most a third of the longer name's length, and at least 1 edit allowed).
    public static func suggestion(for name: String, among known: [String]) -> String? {
        let target = Array(name.lowercased())
        var best: (String, Int)?
        for candidate in known {
            // The distance is at least the difference in length: names too long or too short
            // to be within the allowed distance are skipped unmeasured (a 80 KB name costs nothing).
            let length = candidate.count
            guard abs(length - target.count) <= max(1, max(target.count, length) / 3) else { continue }
            let d = distance(target, Array(candidate.lowercased()))
            if best == nil || d < best!.1 { best = (candidate, d) }
        }
        guard let (match, d) = best else { return nil }
        let allowed = max(1, max(target.count, match.count) / 3)
        return d <= allowed ? match : nil
    }

    /// Edit distance counting insertions, deletions, substitutions and swaps of two
    /// neighbouring letters as one edit each (optimal string alignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
