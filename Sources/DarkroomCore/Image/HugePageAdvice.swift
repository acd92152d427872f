#if canImport(Glibc)
import Glibc
#endif

// MARK: - HugePageAdvice

/// Asks the kernel to back a large, not yet touched buffer with transparent huge pages.
///
/// A 16 MB pixel buffer is otherwise faulted in 4 KiB at a time: 4,000 page faults, which
/// cost more than the decoding that fills them on a virtual machine. With the advice, the
/// 2 MiB-aligned interior of the buffer takes one fault per 2 MiB. Only a hint: where
/// transparent huge pages are off (or on another OS) nothing changes. It never changes what
/// the buffer holds, and buffers under ``threshold`` are left alone.
///
/// ```swift
/// HugePageAdvice.advise(buffer.baseAddress!, byteCount: buffer.count)  // before writing it
/// ```
public enum HugePageAdvice {
    /// Buffers smaller than this are not worth a system call.
    public static let threshold = 4 << 20

    static let hugePage = 2 << 20

    /// Advises huge pages for the 2 MiB-aligned part of `byteCount` bytes at `start`.
    public static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if canImport(Glibc)
        guard byteCount >= threshold else { return }
        let address = UInt(bitPattern: start)
        let first = (address + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
        let end = (address + UInt(byteCount)) & ~UInt(hugePage - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, Int(end - first), MADV_HUGEPAGE)
        #endif
    }
}
