import Glibc

// MARK: - HTTPFreshness

/// How long an origin's answer stays fresh for a shared cache (RFC 9111 §4.2.1): `s-maxage`,
/// else `max-age`, else `Expires` minus the origin's `Date`; `no-cache` is 0 (revalidate at each
/// use); the `Age` the answer already has (a CDN in between) is taken off. `no-store` and
/// `private` (not for a shared cache) forbid keeping it. `nil` when the origin said nothing.
///
/// ```swift
/// HTTPFreshness(cacheControl: "public, max-age=600", expires: nil, date: nil, age: "100").maxAge  // 500
/// HTTPFreshness(cacheControl: nil, expires: "Thu, 01 Jan 1970 00:00:00 GMT", date: nil, age: nil).maxAge  // 0
/// ```
struct HTTPFreshness: Sendable, Hashable {
    var maxAge: Int?
    var noStore: Bool

    init(cacheControl: String?, expires: String?, date: String?, age: String?, now: Double = Self.now()) {
        let control = CacheControl(parsing: cacheControl)
        noStore = control.noStore || control.isPrivate
        var lifetime = control.maxAge
        if lifetime == nil, let expires {
            // An Expires that is not a valid date means "already expired" (RFC 9111 §5.3).
            let expiry = Self.parseHTTPDate(expires) ?? 0
            let origin = date.flatMap(Self.parseHTTPDate) ?? now
            lifetime = max(0, Int((expiry - origin).rounded(.down)))
        }
        if let current = lifetime, let age, let seconds = Int(age.trimming(" \t")), seconds > 0 {
            lifetime = max(0, current - seconds)
        }
        maxAge = lifetime
    }

    init(_ head: HTTPResponseHead) {
        self.init(cacheControl: head["cache-control"], expires: head["expires"], date: head["date"], age: head["age"])
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds since the epoch of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or of the
    /// obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`)
    /// forms; `nil` for anything else.
    static func parseHTTPDate(_ text: String) -> Double? {
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let tokens = text.split(whereSeparator: { " ,-\t".contains($0) }).map { $0.lowercased() }
        // IMF and RFC 850: weekday day month year time GMT; asctime: weekday month day time year.
        let day: Int?, month: Int?, year: Int?, time: String
        if tokens.count == 6, tokens[5] == "gmt" {
            (day, month, year, time) = (Int(tokens[1]), months.firstIndex(of: tokens[2]), Int(tokens[3]), tokens[4])
        } else if tokens.count == 5 {
            (day, month, year, time) = (Int(tokens[2]), months.firstIndex(of: tokens[1]), Int(tokens[4]), tokens[3])
        } else {
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard var year, let month, let day, (1...31).contains(day), clock.count == 3,
            (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }  // RFC 850's two digits (RFC 9110 §5.6.7)
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Double(timegm(&parts))
    }
}
