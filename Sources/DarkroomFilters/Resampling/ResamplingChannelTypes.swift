// MARK: - Channel types of the passes

/// A channel type the fixed-point passes read, with vector loads that widen to `Int32`.
///
/// - `UInt8`: the image's own bytes, 0 fraction bits.
/// - `Int16`: premultiplied values (and the output of one-axis passes on them) with
///   6 fraction bits; signed, so that Lanczos undershoot survives.
protocol ResamplingSource: FixedWidthInteger, SendableMetatype {
    /// Fixed-point fraction bits of the stored value.
    static var fractionBits: Int { get }
    /// The four channels starting at element `index`, widened.
    static func load4(_ base: UnsafePointer<Self>, _ index: Int) -> SIMD4<Int32>
    /// Sixteen elements starting at `index`, widened.
    static func load16(_ base: UnsafePointer<Self>, _ index: Int) -> SIMD16<Int32>
}

/// A channel type the fixed-point passes write, narrowing `Int32` accumulators that
/// ``Narrowing`` has already shifted and clamped.
///
/// `Float` is the intermediate between the two passes of a two-axis resize: it keeps the
/// accumulator's full value, and the second pass (in `Float`) folds the scale into its weights.
protocol ResamplingDestination: SendableMetatype {
    /// Stores four values into `base[index...]`.
    static func store4(_ value: SIMD4<Int32>, _ base: UnsafeMutablePointer<Self>, _ index: Int)
    /// Stores sixteen values into `base[index...]`.
    static func store16(_ value: SIMD16<Int32>, _ base: UnsafeMutablePointer<Self>, _ index: Int)
}

// MARK: - UInt8

extension UInt8: ResamplingSource, ResamplingDestination {
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

// MARK: - Int16

extension Int16: ResamplingSource, ResamplingDestination {
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

// MARK: - Float

extension Float: ResamplingDestination {
    @inline(__always)
    static func store4(_ value: SIMD4<Int32>, _ base: UnsafeMutablePointer<Float>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(of: SIMD4<Float>(value), as: SIMD4<Float>.self)
    }

    /// Converted four lanes at a time (one instruction each; the sixteen-lane
    /// conversion is not inlined).
    @inline(__always)
    static func store16(_ value: SIMD16<Int32>, _ base: UnsafeMutablePointer<Float>, _ index: Int) {
        let raw = UnsafeMutableRawPointer(base + index)
        raw.storeBytes(of: SIMD4<Float>(value.lowHalf.lowHalf), toByteOffset: 0, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4<Float>(value.lowHalf.highHalf), toByteOffset: 16, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4<Float>(value.highHalf.lowHalf), toByteOffset: 32, as: SIMD4<Float>.self)
        raw.storeBytes(of: SIMD4<Float>(value.highHalf.highHalf), toByteOffset: 48, as: SIMD4<Float>.self)
    }
}
