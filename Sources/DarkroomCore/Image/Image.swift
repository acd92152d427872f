// MARK: - Image

/// A decoded image: a contiguous RGBA8 buffer, row-major, no row padding.
///
/// - Pixels are 4 bytes, in the order R, G, B, A.
/// - Alpha is **straight** (not premultiplied): a pixel's colour channels are
///   its colour regardless of its opacity. Filters that blend or resample
///   premultiply internally.
/// - The buffer is an `Array`, so an `Image` is immutable to callers, `Sendable`,
///   and cheap to share: copies share storage until somebody builds a new image.
///
/// ```swift
/// let red = try Image(width: 2, height: 1, pixels: [255, 0, 0, 255, 255, 0, 0, 255])
/// red.pixel(x: 1, y: 0) // RGBA(r: 255, g: 0, b: 0, a: 255)
/// ```
public struct Image: Sendable, Equatable {
    /// Bytes per pixel: always 4 (RGBA8).
    public static let bytesPerPixel = 4

    /// The width in pixels; always positive.
    public let width: Int
    /// The height in pixels; always positive.
    public let height: Int
    /// `width * height * 4` bytes, RGBA, straight alpha. (Settable inside DarkroomCore only, so
    /// that a conversion can rewrite a buffer it owns in place, e.g. ``SRGBConversion``.)
    public internal(set) var pixels: [UInt8]
    /// `false` when every pixel is known to be opaque (e.g. decoded from JPEG);
    /// `true` when some pixel may be translucent. Encoders use it to skip the alpha channel.
    public let hasAlpha: Bool
    /// The size of the full image when this one was decoded smaller (shrink-on-load) by a
    /// factor that does not divide it, so that this image's proportions are slightly off (a
    /// 451×300 JPEG at 1/4 is 113×75, the last column a quarter pixel); `nil` otherwise.
    /// Resizes that keep the aspect ratio fit to these proportions, as libvips fits to the
    /// original size. Decoders set it with ``shrunk(from:)``; filters' outputs do not carry it,
    /// and `==` ignores it.
    public internal(set) var shrunkFrom: PixelSize?
    /// The later frames and the timing of an animated image (`nil` for a still one): this
    /// image is the first frame. See ``Animation``.
    public var animation: Animation? {
        get { frames?.value }
        set { frames = newValue.map(AnimationBox.init) }
    }
    /// Boxed, so that a still image stays as small as before and `Image` can hold images.
    private var frames: AnimationBox?

    /// Wraps an existing RGBA8 buffer.
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` when the sizes disagree.
    public init(width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool = true) throws {
        guard width > 0, height > 0 else {
            throw DarkroomError.invalidArgument(
                name: "image size", value: "\(width)x\(height)", expected: "positive width and height")
        }
        let expected = width * height * Self.bytesPerPixel
        guard pixels.count == expected else {
            throw DarkroomError.invalidArgument(
                name: "pixel buffer", value: "\(pixels.count) bytes",
                expected: "\(expected) bytes for \(width)x\(height) RGBA8")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
        self.hasAlpha = hasAlpha
    }

    /// Builds an image by letting `initializer` write every byte of a fresh buffer
    /// (no zero-filling first). The closure must initialise all `width*height*4` bytes.
    ///
    /// ```swift
    /// let grey = Image(width: 8, height: 8, hasAlpha: false) { buffer in
    ///     buffer.initialize(repeating: 128)
    /// }
    /// ```
    public init(
        width: Int, height: Int, hasAlpha: Bool = true,
        initializingPixelsWith initializer: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        precondition(width > 0 && height > 0, "Image dimensions must be positive")
        let count = width * height * Self.bytesPerPixel
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { HugePageAdvice.advise(base, byteCount: count) }
            try initializer(buffer)
            initialized = count
        }
    }

    // MARK: - Reading

    /// The width and height as a ``PixelSize``.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes in one row: `width * 4`.
    public var bytesPerRow: Int { width * Self.bytesPerPixel }

    /// The memory the pixels take, in bytes (the cost used by caches).
    public var byteCount: Int { pixels.count }

    /// The pixel at `(x, y)`; `(0, 0)` is the top-left corner.
    public func pixel(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
        let i = (y * width + x) * Self.bytesPerPixel
        return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    /// This image recorded as decoded smaller from a full image of `original` size (see
    /// ``shrunkFrom``).
    ///
    /// ```swift
    /// let reduced = decodedAtOneQuarter.shrunk(from: PixelSize(width: 451, height: 300))
    /// ```
    public func shrunk(from original: PixelSize) -> Image {
        var recorded = self
        recorded.shrunkFrom = original
        return recorded
    }

    /// The proportions resizes should keep: ``shrunkFrom`` when set, else ``size``.
    public var proportions: PixelSize { shrunkFrom ?? size }

    /// Images are equal when their sizes, alpha flags, pixels and animations are
    /// (``shrunkFrom`` is a note about where the pixels came from, not part of them).
    public static func == (lhs: Image, rhs: Image) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.hasAlpha == rhs.hasAlpha && lhs.pixels == rhs.pixels
            && lhs.animation == rhs.animation
    }

    /// A copy with `hasAlpha` recomputed from the pixels: `false` when every alpha byte is 255.
    public func withAlphaScanned() -> Image {
        var opaque = true
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { opaque = false; return }
                i += 4
            }
        }
        // Safe: sizes are unchanged.
        var scanned = try! Image(width: width, height: height, pixels: pixels, hasAlpha: !opaque)
        scanned.shrunkFrom = shrunkFrom
        return scanned
    }
}

// MARK: - AnimationBox

/// Holds an ``Animation`` out of line (immutable, so sharing it between copies is safe).
private final class AnimationBox: Sendable {
    let value: Animation
    init(_ value: Animation) { self.value = value }
}

// MARK: - RGBA

/// One straight-alpha RGBA8 pixel.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    /// The red channel, 0…255.
    public var r: UInt8
    /// The green channel, 0…255.
    public var g: UInt8
    /// The blue channel, 0…255.
    public var b: UInt8
    /// The opacity, 0 (transparent) … 255 (opaque); the colour channels are not premultiplied by it.
    public var a: UInt8

    /// Builds a pixel from its channels; `a` defaults to 255 (opaque).
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public var description: String { "RGBA(r: \(r), g: \(g), b: \(b), a: \(a))" }
}
