// MARK: - ImageMetadata

/// The metadata an image file carries besides its pixels: the EXIF block, the XMP packet and
/// the ICC profile, each as stored. Renders drop it by default (sharp's, imgproxy's and
/// thumbor's default too); a variant with `strip = false` (or `--keep-metadata`) copies it
/// into formats that hold it (JPEG, PNG, WebP), as sharp's `withMetadata()` does.
///
/// - ``exif`` is the TIFF structure (starting `II*\0` or `MM\0*`), without JPEG's
///   `Exif\0\0` prefix: the form PNG's `eXIf` and WebP's `EXIF` chunks store.
/// - ``xmp`` is the XMP packet's UTF-8 text.
/// - ``iccProfile`` is the whole profile.
///
/// ```swift
/// let metadata = ImageMetadata(reading: jpegBytes, format: .jpeg)
/// metadata.exif.map(ExifOrientation.read)   // .right for a phone's portrait photo
/// ```
public struct ImageMetadata: Sendable, Hashable {
    /// The EXIF block as a TIFF structure; `nil` when there is none.
    public var exif: [UInt8]?
    /// The XMP packet; `nil` when there is none.
    public var xmp: [UInt8]?
    /// The ICC profile; `nil` when there is none.
    public var iccProfile: [UInt8]?

    /// Metadata with the given parts; `nil` parts are absent.
    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iccProfile: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iccProfile = iccProfile
    }

    /// No metadata: what a stripped output carries.
    public static let none = ImageMetadata()

    /// Whether no part is present.
    public var isEmpty: Bool { exif == nil && xmp == nil && iccProfile == nil }
}

// MARK: - What an output keeps

extension ImageMetadata {
    /// The metadata an output of pixels decoded with `decoding` carries, sharp's rules:
    /// - EXIF: kept, with its orientation reset to 1 (top-left) when the decode turned the
    ///   pixels upright — the output must not be turned a second time. A block that is not a
    ///   valid TIFF structure is dropped.
    /// - XMP: kept, its `tiff:Orientation` reset to 1 too when the decode turned the pixels.
    /// - ICC profile: kept only when it still describes the pixels: an RGB profile the decode
    ///   did not convert to sRGB (``ColorProfileHandling/ignore``, or a profile that cannot be
    ///   applied). A converted image is sRGB, which an untagged file means; a CMYK or grey profile
    ///   does not describe RGB output.
    ///
    /// ```swift
    /// let kept = ImageMetadata(reading: bytes, format: .jpeg).kept(afterDecodingWith: DecodeOptions())
    /// ```
    public func kept(afterDecodingWith decoding: DecodeOptions) -> ImageMetadata {
        var kept = ImageMetadata(xmp: decoding.appliesOrientation ? xmp.map(XMPOrientation.resettingToUp) : xmp)
        if let exif, ExifOrientation.isTIFFStructure(exif) {
            kept.exif = decoding.appliesOrientation ? ExifOrientation.resettingToUp(exif) : exif
        }
        if let iccProfile, let profile = ICCProfile(bytes: iccProfile), profile.channelCount == 3 {
            let converted = decoding.colorProfiles == .convertToSRGB && SRGBConversion(from: profile) != nil
            if !converted { kept.iccProfile = iccProfile }
        }
        return kept
    }
}
