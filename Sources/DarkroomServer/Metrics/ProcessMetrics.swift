import DarkroomSources
import Glibc

// MARK: - ProcessMetrics

/// The process's own figures in Prometheus' standard names, as every Prometheus client's
/// process collector writes them, read from `/proc/self` at each scrape:
///
/// - `process_cpu_seconds_total` (user and system CPU time),
/// - `process_resident_memory_bytes` and `process_virtual_memory_bytes`,
/// - `process_open_fds` and `process_max_fds` (the soft limit),
/// - `process_threads`, and `process_start_time_seconds` (Unix time).
///
/// ```swift
/// let text = ProcessMetrics.read()?.exposition   // "# TYPE process_cpu_seconds_total counter\n…"
/// ```
public struct ProcessMetrics: Sendable, Equatable {
    /// The user and system CPU time spent, in seconds (`process_cpu_seconds_total`).
    public var cpuSeconds: Double
    /// The resident memory size in bytes (`process_resident_memory_bytes`).
    public var residentBytes: Int
    /// The virtual memory size in bytes (`process_virtual_memory_bytes`).
    public var virtualBytes: Int
    /// The number of open file descriptors (`process_open_fds`).
    public var openFileDescriptors: Int
    /// The soft limit on open file descriptors (`process_max_fds`); `nil` when it is unlimited
    /// or cannot be read, and then not written.
    public var maximumFileDescriptors: Int?
    /// The number of OS threads in the process (`process_threads`).
    public var threads: Int
    /// When the process started, in seconds since the Unix epoch (`process_start_time_seconds`).
    public var startTime: Double

    /// The figures now, or `nil` where `/proc` cannot be read.
    public static func read() -> ProcessMetrics? {
        guard let stat = text(of: "/proc/self/stat"), let fields = statFields(stat), fields.count > 22 else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        // Fields after "(comm)": state is field 3 (index 0 here), utime 14, stime 15,
        // num_threads 20, starttime 22, vsize 23, rss 24.
        func field(_ number: Int) -> Double { Double(fields[number - 3]) ?? 0 }
        guard ticks > 0, let bootTime = bootTime() else { return nil }
        var limit = rlimit()
        let maximum = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < rlim_t(Int.max) ? Int(limit.rlim_cur) : nil
        return ProcessMetrics(
            cpuSeconds: (field(14) + field(15)) / ticks,
            residentBytes: Int(field(24)) * pageSize,
            virtualBytes: Int(field(23)),
            openFileDescriptors: openDescriptors(),
            maximumFileDescriptors: maximum,
            threads: Int(field(20)),
            startTime: bootTime + field(22) / ticks)
    }

    /// The figures in Prometheus' text format.
    public var exposition: String {
        var text = ""
        func add(_ name: String, _ type: String, _ help: String, _ value: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        add("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", "\(cpuSeconds)")
        add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", "\(residentBytes)")
        add("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", "\(virtualBytes)")
        add("process_open_fds", "gauge", "Number of open file descriptors.", "\(openFileDescriptors)")
        if let maximumFileDescriptors {
            add("process_max_fds", "gauge", "Maximum number of open file descriptors.", "\(maximumFileDescriptors)")
        }
        add("process_threads", "gauge", "Number of OS threads in the process.", "\(threads)")
        add("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", "\(startTime)")
        return text
    }

    // MARK: - Reading /proc

    /// The fields of `/proc/self/stat` after the command name (which may hold spaces and
    /// parentheses: everything up to the last ")" is skipped).
    static func statFields(_ stat: String) -> [Substring]? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
    }

    /// Seconds since the epoch at boot (`btime` in `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let stat = text(of: "/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingPrefix(" "))
        }
        return nil
    }

    private static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return max(0, count - 1)  // the directory's own descriptor
    }

    /// A small `/proc` file's text (`FileBytes` reads such zero-size files to their end).
    private static func text(of path: String) -> String? {
        (try? FileBytes.read(path, maxBytes: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }
}
