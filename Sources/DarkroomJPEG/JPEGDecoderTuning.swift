import CJPEG

// MARK: - Speed/quality tuning

extension JPEGDecoder {
    /// Speed/quality trade-offs of ``JPEGDecoder``.
    ///
    /// ```swift
    /// let fastest = JPEGDecoder(tuning: .init(fastUpsampling: true, fastIDCT: true))
    /// ```
    public struct Tuning: Sendable, Hashable {
        /// Replicate subsampled chroma instead of interpolating it ("fancy upsampling").
        /// Matters only where chroma is not already expanded by a scaled IDCT.
        public var fastUpsampling: Bool
        /// Use libjpeg's fast integer IDCT instead of the accurate one (scale 1/1 only).
        public var fastIDCT: Bool
        /// At scale 1/8, read a progressive JPEG only until the scans the 1/8 output uses are
        /// in (the DC scans, plus the first chroma AC scans when chroma is subsampled 4:2:0),
        /// skipping the rest of the file: 3–10× faster. The output may lack low bits that
        /// refinement scans add (≥ 43 dB PSNR against the full read on photos). Only for
        /// files that end in an EOI marker, so a truncated file still throws.
        public var stopsProgressiveEighthsEarly: Bool

        public init(fastUpsampling: Bool = false, fastIDCT: Bool = false, stopsProgressiveEighthsEarly: Bool = true) {
            self.fastUpsampling = fastUpsampling
            self.fastIDCT = fastIDCT
            self.stopsProgressiveEighthsEarly = stopsProgressiveEighthsEarly
        }

        /// The default: libjpeg's accurate IDCT and upsampling, early-stopping progressive 1/8 decodes.
        public static let `default` = Tuning()

        /// Every pass of the file decoded exactly as libjpeg-turbo does by default.
        public static let exact = Tuning(stopsProgressiveEighthsEarly: false)

        var cOptions: cjpeg_decode_options {
            cjpeg_decode_options(
                fast_upsampling: fastUpsampling ? 1 : 0,
                fast_dct: fastIDCT ? 1 : 0,
                early_stop_at_eighth: stopsProgressiveEighthsEarly ? 1 : 0)
        }
    }
}
