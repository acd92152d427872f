// MARK: - ResamplingSample

/// A channel value type the resampling passes read and write, with vector loads and
/// stores that widen to / narrow from `Int32` accumulators.
///
/// - `UInt8`: the image's own bytes, 0 fraction bits.
/// - `Int16`: intermediate and premultiplied values with ``Int16/fractionBits`` (6)
///   fraction bits; signed so that Lanczos undershoot survives between the passes.
protocol ResamplingSample: FixedWidthInteger, SendableMetatype {
    /// Fixed-point fraction bits of the stored value.
    static var fractionBits: Int { get }
    /// The four channels starting at element `index`, widened.
    static func load4(_ base: UnsafePointer<Self>, _ index: Int) -> SIMD4<Int32>
    /// Sixteen elements starting at `index`, widened.
    static func load16(_ base: UnsafePointer<Self>, _ index: Int) -> SIMD16<Int32>
    /// Narrows four already-clamped values into `base[index...]`.
    static func store4(_ value: SIMD4<Int32>, _ base: UnsafeMutablePointer<Self>, _ index: Int)
    /// Narrows sixteen already-clamped values into `base[index...]`.
    static func store16(_ value: SIMD16<Int32>, _ base: UnsafeMutablePointer<Self>, _ index: Int)
}

extension UInt8: ResamplingSample {
    static var fractionBits: Int { 0 }

    @inline(__always)
    static func load4(_ base: UnsafePointer<UInt8>, _ index: Int) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    @inline(__always)
    static func load16(_ base: UnsafePointer<UInt8>, _ index: Int) -> SIMD16<Int32> {
        SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self))
    }

    @inline(__always)
    static func store4(_ value: SIMD4<Int32>, _ base: UnsafeMutablePointer<UInt8>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(
            of: SIMD4<UInt8>(truncatingIfNeeded: value), as: SIMD4<UInt8>.self)
    }

    @inline(__always)
    static func store16(_ value: SIMD16<Int32>, _ base: UnsafeMutablePointer<UInt8>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(
            of: SIMD16<UInt8>(truncatingIfNeeded: value), as: SIMD16<UInt8>.self)
    }
}

extension Int16: ResamplingSample {
    static var fractionBits: Int { 6 }

    @inline(__always)
    static func load4(_ base: UnsafePointer<Int16>, _ index: Int) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Int16>.self))
    }

    @inline(__always)
    static func load16(_ base: UnsafePointer<Int16>, _ index: Int) -> SIMD16<Int32> {
        SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<Int16>.self))
    }

    @inline(__always)
    static func store4(_ value: SIMD4<Int32>, _ base: UnsafeMutablePointer<Int16>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(
            of: SIMD4<Int16>(truncatingIfNeeded: value), as: SIMD4<Int16>.self)
    }

    @inline(__always)
    static func store16(_ value: SIMD16<Int32>, _ base: UnsafeMutablePointer<Int16>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(
            of: SIMD16<Int16>(truncatingIfNeeded: value), as: SIMD16<Int16>.self)
    }
}
