// MARK: - DecodeOptions

/// How to decode: the size the caller needs, whether to apply EXIF orientation and embedded
/// colour profiles, and limits.
///
/// ```swift
/// let options = DecodeOptions(sizeHint: PixelSize(width: 256, height: 256))
/// let thumbSource = try decoder.decode(bytes, header: header, options: options)
/// ```
public struct DecodeOptions: Sendable, Hashable {
    /// The smallest **upright** size the caller will use. A decoder that can shrink on
    /// load (JPEG DCT scaling) decodes at the smallest scale whose upright result is
    /// still at least this large in both dimensions. `nil` means full size.
    public var sizeHint: PixelSize?
    /// Apply the EXIF orientation so pixels come out upright (default `true`).
    public var appliesOrientation: Bool
    /// Input and pixel limits.
    public var limits: DecodeLimits
    /// What to do with an embedded ICC profile (default: convert the pixels to sRGB).
    public var colorProfiles: ColorProfileHandling
    /// How much damage in the pixel data stops the decode (default ``FailOn/warning``).
    public var failOn: FailOn
    /// Which page of a multi-page file to decode, 0 being the first (sharp's `page`). Only
    /// TIFF has pages; every other format has page 0 alone and refuses a higher one.
    public var page: Int
    /// Whether an animated GIF or WebP keeps every frame (default `true`; ``Image/animation``)
    /// or decodes to its first frame alone (sharp's `animated: false`).
    public var animated: Bool
    /// Where damage that ``failOn`` lets through is reported; `nil` drops the warnings.
    /// Never part of equality.
    public var warnings: DecodeWarningHandler?

    /// Builds decode options; by default the image is decoded at full size, upright, within the
    /// default ``DecodeLimits``, with an embedded profile converted to sRGB, failing on any
    /// damage.
    public init(
        sizeHint: PixelSize? = nil, appliesOrientation: Bool = true, limits: DecodeLimits = DecodeLimits(),
        colorProfiles: ColorProfileHandling = .convertToSRGB, failOn: FailOn = .default, page: Int = 0,
        animated: Bool = true, warnings: DecodeWarningHandler? = nil
    ) {
        self.sizeHint = sizeHint
        self.appliesOrientation = appliesOrientation
        self.limits = limits
        self.colorProfiles = colorProfiles
        self.failOn = failOn
        self.page = page
        self.animated = animated
        self.warnings = warnings
    }

    /// Equal when everything but ``warnings`` is: a handler does not change the pixels.
    public static func == (lhs: DecodeOptions, rhs: DecodeOptions) -> Bool {
        lhs.sizeHint == rhs.sizeHint && lhs.appliesOrientation == rhs.appliesOrientation && lhs.limits == rhs.limits
            && lhs.colorProfiles == rhs.colorProfiles && lhs.failOn == rhs.failOn && lhs.page == rhs.page
            && lhs.animated == rhs.animated
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sizeHint)
        hasher.combine(appliesOrientation)
        hasher.combine(limits)
        hasher.combine(colorProfiles)
        hasher.combine(failOn)
        hasher.combine(page)
        hasher.combine(animated)
    }
}

// MARK: - ColorProfileHandling

/// What a decoder does with an ICC profile embedded in the file.
///
/// ```swift
/// let asStored = DecodeOptions(colorProfiles: .ignore)
/// ```
public enum ColorProfileHandling: Sendable, Hashable {
    /// Convert the pixels to sRGB (what sharp and imgproxy do by default): an Adobe RGB or
    /// Display P3 photo keeps its colours in every output, which carries no profile.
    case convertToSRGB
    /// Keep the pixel values as stored, whatever the profile says.
    case ignore
}

// MARK: - The decoder contract's shared steps

extension DecodeOptions {
    /// Checks the input length and the header's size against ``limits`` — what every decoder
    /// does before allocating pixels — and that ``page`` can exist in the header's format.
    public func checkLimits(byteCount: Int, header: ImageHeader) throws {
        if page != 0, page < 0 || !header.format.hasPages {
            throw DarkroomError.invalidArgument(
                name: "page", value: String(page),
                expected: header.format.hasPages ? "0 or more" : "0: a \(header.format.displayName) file has one page")
        }
        try limits.check(byteCount: byteCount)
        try limits.check(header)
    }

    /// `stored` converted to sRGB from the embedded profile `iccProfile` (see
    /// ``SRGBConversion``), in place when the caller hands over its only reference; unchanged
    /// when there is none, it cannot be applied or is sRGB
    /// already, or ``colorProfiles`` is ``ColorProfileHandling/ignore``.
    public func convertToSRGB(_ stored: consuming Image, iccProfile: [UInt8]?) -> Image {
        convertToSRGB(stored, profile: iccProfile.flatMap(ICCProfile.init(bytes:)))
    }

    /// `stored` converted to sRGB from `profile` (a parsed ICC profile, or one built from
    /// ``CICPColor`` code points); unchanged as above, and when the profile is a CMYK one (the
    /// pixels are RGB: the profile does not describe them).
    public func convertToSRGB(_ stored: consuming Image, profile: ICCProfile?) -> Image {
        guard colorProfiles == .convertToSRGB, let profile, profile.channelCount != 4,
            let conversion = SRGBConversion(from: profile)
        else {
            return stored
        }
        // A grey profile does not describe colour pixels: ignored, as browsers and libpng do.
        if profile.channelCount == 1, !Self.isGrey(stored) { return stored }
        return conversion.apply(to: stored)
    }

    /// Whether every pixel has R = G = B.
    private static func isGrey(_ image: Image) -> Bool {
        image.pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i] != p[i + 1] || p[i] != p[i + 2] { return false }
                i += 4
            }
            return true
        }
    }

    /// Whether `damage` stops this decode: `true` means throw. Otherwise the decoder goes on
    /// with what it has and `warning` goes to ``warnings``.
    ///
    /// ```swift
    /// if options.stops(on: .truncated, warning: DecodeWarning(format: .bmp, damage: .truncated, detail: "row 12 of 40")) {
    ///     throw DarkroomError.truncated(.bmp, detail: "row 12 of 40")
    /// }
    /// ```
    public func stops(on damage: DecodeDamage, warning: @autoclosure () -> DecodeWarning) -> Bool {
        if failOn.stops(on: damage) { return true }
        warnings?(warning())
        return false
    }

    /// The stored pixels turned upright by `header.orientation`, or unchanged when
    /// ``appliesOrientation`` is `false`.
    public func orient(_ stored: Image, header: ImageHeader) -> Image {
        appliesOrientation ? stored.applying(header.orientation) : stored
    }
}

