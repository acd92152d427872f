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
        /// At scale 1/4, read a progressive JPEG only until every coefficient is in with its
        /// DC exact and at most the last bit of each AC coefficient missing, skipping the final
        /// AC refinement scans (with libjpeg's standard script, the last scan: over a third of
        /// the file). Measured against the full 1/4 read: 42 dB PSNR at q75 4:2:0, > 50 dB at
        /// q95, 54 dB on a q90 photo; 25–30% faster. After a thumbnail's residual resize the
        /// difference is far below JPEG loss (peers T1: 31.38 dB vs 31.40 dB). Only for files
        /// that end in an EOI marker, so a truncated file still throws.
        public var stopsProgressiveQuartersEarly: Bool

        /// Tuning with each shortcut on or off; the defaults are ``default``'s, all off is ``exact``.
        public init(
            fastUpsampling: Bool = false, stopsProgressiveEighthsEarly: Bool = true,
            stopsProgressiveQuartersEarly: Bool = true
        ) {
            self.fastUpsampling = fastUpsampling
            self.stopsProgressiveEighthsEarly = stopsProgressiveEighthsEarly
            self.stopsProgressiveQuartersEarly = stopsProgressiveQuartersEarly
        }

        /// The default: libjpeg's interpolated chroma and early-stopping progressive 1/8 and
        /// 1/4 decodes.
        public static let `default` = Tuning()

        /// Every pass of the file decoded exactly as libjpeg-turbo does by default.
        public static let exact = Tuning(stopsProgressiveEighthsEarly: false, stopsProgressiveQuartersEarly: false)

        var cOptions: cjpeg_decode_options {
            cjpeg_decode_options(
                fast_upsampling: fastUpsampling ? 1 : 0,
                early_stop_at_eighth: stopsProgressiveEighthsEarly ? 1 : 0,
                early_stop_at_quarter: stopsProgressiveQuartersEarly ? 1 : 0)
        }
    }
}
