import CJPEG

// MARK: - Speed/quality tuning

extension JPEGDecoder {
    /// Speed/quality trade-offs of ``JPEGDecoder``.
    ///
    /// libjpeg's fast integer IDCT is not offered: with libjpeg-turbo's SIMD it measured no
    /// faster than the accurate one while dropping to ~45 dB PSNR.
    ///
    /// ```swift
    /// let fastest = JPEGDecoder(tuning: .init(fastUpsampling: true))
    /// ```
    public struct Tuning: Sendable, Hashable {
        /// Replicate subsampled chroma instead of interpolating it ("fancy upsampling").
        /// Measured: 10–25% faster full-size decodes of 4:2:0 and 4:2:2 files, at 48–55 dB
        /// PSNR against the default; no gain at smaller scales, where a scaled IDCT already
        /// expands 4:2:0 chroma.
        public var fastUpsampling: Bool
        /// At scale 1/8, read a progressive JPEG only until the scans the 1/8 output uses are
        /// in (the DC scans, plus the first chroma AC scans when chroma is subsampled 4:2:0),
        /// skipping the rest of the file: measured 3–8× faster. The output may lack low bits
        /// that refinement scans add: 41–45 dB PSNR against the full read for 4:2:0 files,
        /// ≥ 51 dB (often identical) otherwise. Only for files that end in an EOI marker, so
        /// a truncated file still throws.
        public var stopsProgressiveEighthsEarly: Bool

        public init(fastUpsampling: Bool = false, stopsProgressiveEighthsEarly: Bool = true) {
            self.fastUpsampling = fastUpsampling
            self.stopsProgressiveEighthsEarly = stopsProgressiveEighthsEarly
        }

        /// The default: libjpeg's interpolated chroma and early-stopping progressive 1/8 decodes.
        public static let `default` = Tuning()

        /// Every pass of the file decoded exactly as libjpeg-turbo does by default.
        public static let exact = Tuning(stopsProgressiveEighthsEarly: false)

        var cOptions: cjpeg_decode_options {
            cjpeg_decode_options(
                fast_upsampling: fastUpsampling ? 1 : 0,
                early_stop_at_eighth: stopsProgressiveEighthsEarly ? 1 : 0)
        }
    }
}
