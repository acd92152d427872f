import DarkroomCore
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - RotationSampler

/// Turns an image by any angle about its centre onto the bounding box of the turned image.
///
/// - **Geometry.** Output pixel centres are mapped back into the source by the inverse turn
///   (clockwise on screen, y pointing down) about the two images' centres. The canvas is the
///   turned image's bounding box, sides rounded up (ignoring less than 1/100 px, so a tiny
///   turn does not add a column of almost-empty pixels).
/// - **Colour.** A Catmull-Rom bicubic (interpolating, sharp) over the 4×4 nearest source
///   pixels, on colour premultiplied by alpha so transparent pixels lend no colour; indices
///   beyond the edges repeat the border pixel. Overshoot is clamped, so colour never exceeds
///   alpha. The weights sum to one, so a constant image stays constant inside.
/// - **Edges.** Each output pixel is weighted by the part of a one-pixel square about its
///   mapped centre that lies inside the source (`coverage`), which anti-aliases the edges; the
///   rest is `background`, mixed in by `1 − coverage` (premultiplied). The image's own
///   translucent pixels stay as they are: the background fills only what the image leaves.
///
/// ```swift
/// let tilted = RotationSampler.rotate(photo, degrees: 30, background: RGBA(r: 255, g: 255, b: 255))
/// RotationSampler.outputSize(of: PixelSize(width: 100, height: 50), degrees: 30) // 112×94
/// ```
enum RotationSampler {
    /// The bounding box of a `size` image turned by `degrees`.
    static func outputSize(of size: PixelSize, degrees: Double) -> PixelSize {
        let (c, s) = cosSin(degrees)
        let w = Double(size.width), h = Double(size.height)
        func side(_ extent: Double) -> Int { max(1, Int((extent - 0.01).rounded(.up))) }
        return PixelSize(width: side(w * abs(c) + h * abs(s)), height: side(w * abs(s) + h * abs(c)))
    }

    /// The turned image; it has alpha when `image` has or `background` is translucent.
    static func rotate(_ image: Image, degrees: Double, background: RGBA) -> Image {
        let out = outputSize(of: image.size, degrees: degrees)
        let (c, s) = cosSin(degrees)
        let hasAlpha = image.hasAlpha || background.a < 255
        let geometry = Geometry(
            cos: c, sin: s, sourceWidth: image.width, sourceHeight: image.height,
            outputWidth: out.width, outputHeight: out.height,
            premultiplies: image.hasAlpha, background: background)
        return image.pixels.withUnsafeBufferPointer { sourceBuffer in
            Image(width: out.width, height: out.height, hasAlpha: hasAlpha) { outBuffer in
                // The buffers outlive the synchronous concurrentPerform; raw pointers are not
                // Sendable, hence the nonisolated(unsafe) copies. Bands write disjoint rows.
                nonisolated(unsafe) let source = sourceBuffer.baseAddress!, destination = outBuffer.baseAddress!
                let bands = out.width * out.height < 1 << 16 ? 1 : min(out.height, processorCount * 4)
                let rowsPerBand = (out.height + bands - 1) / bands
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let start = band * rowsPerBand
                    for y in start..<min(out.height, start + rowsPerBand) {
                        geometry.renderRow(y, source: source, into: destination + y * out.width * 4)
                    }
                }
            }
        }
    }

    static let processorCount: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// cos and sin of a clockwise turn of `degrees`, exact for multiples of 90°.
    static func cosSin(_ degrees: Double) -> (Double, Double) {
        let radians = degrees * Double.pi / 180
        func snapped(_ v: Double) -> Double { abs(v) < 1e-15 ? 0 : v }
        return (snapped(cos(radians)), snapped(sin(radians)))
    }

    // MARK: - One output row

    /// Everything a row needs, fixed for the whole image.
    struct Geometry: Sendable {
        let cos: Double, sin: Double
        let sourceWidth: Int, sourceHeight: Int
        let outputWidth: Int, outputHeight: Int
        let premultiplies: Bool
        let background: RGBA
        /// The background, premultiplied, in 0…255.
        let backgroundPremultiplied: SIMD4<Float>

        init(
            cos: Double, sin: Double, sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int,
            premultiplies: Bool, background: RGBA
        ) {
            self.cos = cos
            self.sin = sin
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
            self.outputWidth = outputWidth
            self.outputHeight = outputHeight
            self.premultiplies = premultiplies
            self.background = background
            let a = Float(background.a)
            backgroundPremultiplied = SIMD4(
                Float(background.r) * a / 255, Float(background.g) * a / 255, Float(background.b) * a / 255, a)
        }

        /// Writes output row `y` (RGBA8, straight alpha) to `row`.
        func renderRow(_ y: Int, source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<UInt8>) {
            let w = Double(sourceWidth), h = Double(sourceHeight)
            let v = Double(y) + 0.5 - Double(outputHeight) / 2
            let u0 = 0.5 - Double(outputWidth) / 2
            // Source position of the row's first pixel centre; each step right adds (cos, −sin).
            let startX = u0 * cos + v * sin + w / 2, startY = -u0 * sin + v * cos + h / 2
            for x in 0..<outputWidth {
                let px = startX + Double(x) * cos, py = startY - Double(x) * sin
                let coverage = Self.overlap(px, w) * Self.overlap(py, h)
                let o = row + x * 4
                guard coverage > 0 else {
                    o[0] = background.r; o[1] = background.g; o[2] = background.b; o[3] = background.a
                    continue
                }
                let p = sample(source, px - 0.5, py - 0.5)
                // Clamp the bicubic's overshoot (colour never above alpha), weight by coverage,
                // add the background only where the image does not reach (1 − coverage), as
                // ImageMagick and vips do: the image's own translucency is kept, never filled.
                // Then back to straight alpha.
                let k = Float(coverage)
                let alpha = min(max(p.w, 0), 255)
                let under = 1 - k
                let outAlpha = alpha * k + backgroundPremultiplied.w * under
                let alphaByte = Self.byte(outAlpha)
                guard alphaByte > 0 else {
                    // Nothing shows: a transparent background as given, else transparent black.
                    let clear = background.a == 0 ? background : RGBA(r: 0, g: 0, b: 0, a: 0)
                    o[0] = clear.r; o[1] = clear.g; o[2] = clear.b; o[3] = 0
                    continue
                }
                let unpremultiply = 255 / outAlpha
                o[0] = Self.byte((min(max(p.x, 0), alpha) * k + backgroundPremultiplied.x * under) * unpremultiply)
                o[1] = Self.byte((min(max(p.y, 0), alpha) * k + backgroundPremultiplied.y * under) * unpremultiply)
                o[2] = Self.byte((min(max(p.z, 0), alpha) * k + backgroundPremultiplied.z * under) * unpremultiply)
                o[3] = alphaByte
            }
        }

        /// `v` rounded (halves up) and clamped to a byte.
        @inline(__always)
        static func byte(_ v: Float) -> UInt8 {
            UInt8(min(max(v, 0), 255) + 0.5)
        }

        /// The length of `[p − ½, p + ½] ∩ [0, extent]`, for an extent of at least 1.
        @inline(__always)
        static func overlap(_ p: Double, _ extent: Double) -> Double {
            min(max(min(p + 0.5, extent + 0.5 - p), 0), 1)
        }

        /// Catmull-Rom weights for a tap at fraction `t` past the second of four pixels.
        @inline(__always)
        static func weights(_ t: Float) -> SIMD4<Float> {
            let t2 = t * t, t3 = t2 * t
            return SIMD4(
                -0.5 * t3 + t2 - 0.5 * t,
                1.5 * t3 - 2.5 * t2 + 1,
                -1.5 * t3 + 2 * t2 + 0.5 * t,
                0.5 * t3 - 0.5 * t2)
        }

        /// The bicubic value at pixel-index position (`tx`, `ty`): colour premultiplied (or as
        /// is, for an opaque image), alpha in 0…255.
        @inline(__always)
        func sample(_ source: UnsafePointer<UInt8>, _ tx: Double, _ ty: Double) -> SIMD4<Float> {
            let fx = tx.rounded(.down), fy = ty.rounded(.down)
            let wx = Self.weights(Float(tx - fx)), wy = Self.weights(Float(ty - fy))
            let ix = Int(fx), iy = Int(fy)
            let rowBytes = sourceWidth * 4
            var total = SIMD4<Float>.zero
            if ix >= 1, iy >= 1, ix + 2 < sourceWidth, iy + 2 < sourceHeight {
                // All 16 taps inside: consecutive pixels, no clamping.
                var tap = source + (iy - 1) * rowBytes + (ix - 1) * 4
                for j in 0..<4 {
                    var rowSum = wx[0] * load(tap)
                    rowSum += wx[1] * load(tap + 4)
                    rowSum += wx[2] * load(tap + 8)
                    rowSum += wx[3] * load(tap + 12)
                    total += wy[j] * rowSum
                    tap += rowBytes
                }
                return total
            }
            let maxX = sourceWidth - 1, maxY = sourceHeight - 1
            let columns = SIMD4(
                min(max(ix - 1, 0), maxX), min(max(ix, 0), maxX), min(max(ix + 1, 0), maxX), min(max(ix + 2, 0), maxX))
            for j in 0..<4 {
                let sourceRow = source + min(max(iy - 1 + j, 0), maxY) * rowBytes
                var rowSum = SIMD4<Float>.zero
                for i in 0..<4 { rowSum += wx[i] * load(sourceRow + columns[i] * 4) }
                total += wy[j] * rowSum
            }
            return total
        }

        /// One source pixel as floats, colour premultiplied by alpha when the image has alpha.
        @inline(__always)
        func load(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float> {
            let bytes = UnsafeRawPointer(pixel).loadUnaligned(as: SIMD4<UInt8>.self)
            let value = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes))
            guard premultiplies else { return value }
            let f = value.w * (1 / 255)
            return value * SIMD4(f, f, f, 1)
        }
    }
}
