// MARK: - HTTPDate

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate servers send, and the two obsolete forms
/// (RFC 850 and asctime) a recipient must still accept. Always GMT.
///
/// ```swift
/// HTTPDate.secondsSince1970("Sun, 06 Nov 1994 08:49:37 GMT")    // 784111777
/// HTTPDate.secondsSince1970("Sunday, 06-Nov-94 08:49:37 GMT")   // 784111777
/// HTTPDate.secondsSince1970("Sun Nov  6 08:49:37 1994")         // 784111777
/// ```
enum HTTPDate {
    /// Seconds since 1970-01-01 00:00:00 GMT, or `nil` when `text` is not an HTTP date.
    /// `now` (seconds since 1970) places an RFC 850 two-digit year: one more than 50 years
    /// ahead means the century before.
    static func secondsSince1970(_ text: String, now: Double = 0) -> Int64? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.count {
        case 6:  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[0].hasSuffix(","), shortDays.contains(String(words[0].dropLast())),
                  words[1].count == 2, let day = Int(words[1]), let month = month(words[2]),
                  words[3].count == 4, let year = Int(words[3]), isGMT(words[5]) else { return nil }
            return seconds(year: year, month: month, day: day, time: words[4])
        case 4:  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard words[0].hasSuffix(","), longDays.contains(String(words[0].dropLast())),
                  parts.count == 3, parts[0].count == 2, let day = Int(parts[0]),
                  let month = month(parts[1]), parts[2].count == 2, let shortYear = Int(parts[2]),
                  isGMT(words[3]) else { return nil }
            return seconds(year: fullYear(shortYear, now: now), month: month, day: day, time: words[2])
        case 5:  // asctime: Sun Nov  6 08:49:37 1994
            guard shortDays.contains(words[0]), let month = month(words[1]),
                  (1...2).contains(words[2].count), let day = Int(words[2]),
                  words[4].count == 4, let year = Int(words[4]) else { return nil }
            return seconds(year: year, month: month, day: day, time: words[3])
        default:
            return nil
        }
    }

    // MARK: - Parts

    private static let shortDays: Set = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays: Set = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    /// RFC 9110 says "GMT"; "UTC" is the same clock and some servers send it.
    private static func isGMT(_ zone: String) -> Bool { zone == "GMT" || zone == "UTC" }

    private static func fullYear(_ shortYear: Int, now: Double) -> Int {
        let thisYear = 1970 + Int(now / 31_556_952)  // mean Gregorian year; a day off is harmless
        var year = 2000 + shortYear
        while year > thisYear + 50 { year -= 100 }
        return year
    }

    /// `time` is `HH:MM:SS`; every field is range-checked (a leap second, :60, is allowed).
    private static func seconds(year: Int, month: Int, day: Int, time: String) -> Int64? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian), counting whole years and
    /// months before it.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Leap days in the years before `year`, since year 0.
        func leapDays(before year: Int) -> Int {
            let y = year - 1
            return y / 4 - y / 100 + y / 400
        }
        var days = (year - 1970) * 365 + leapDays(before: year) - leapDays(before: 1970)
        for earlier in stride(from: 1, to: month, by: 1) { days += daysIn(month: earlier, year: year) }
        return days + day - 1
    }
}
