import DarkroomCore

// MARK: - TGAHeader

/// A TGA file's 18-byte header, the position of its colour map and pixels, and what its TGA 2.0
/// extension area says about alpha.
///
/// ```swift
/// let header = try TGAHeader(ByteReader(raw))
/// print(header.kind, header.depth, header.isRunLength, header.isTopDown)  // trueColor 32 true true
/// ```
struct TGAHeader {
    /// What a pixel value is.
    enum Kind {
        /// An index into the colour map (image types 1 and 9).
        case colorMapped
        /// B, G, R (and A) in 15, 16, 24 or 32 bits (types 2 and 10).
        case trueColor
        /// Y, or Y and A (types 3 and 11).
        case grey
    }

    /// What the TGA 2.0 extension area's attributes type says the alpha bits hold.
    enum AlphaUse {
        /// No extension area: the descriptor's alpha bits decide.
        case unspecified
        /// Types 0–2: no alpha (the bits are to be ignored).
        case none
        /// Type 3: straight alpha.
        case straight
        /// Type 4: premultiplied alpha.
        case premultiplied
    }

    let kind: Kind
    let isRunLength: Bool
    let width: Int
    let height: Int
    /// Bits per stored pixel value: 8 or 16 for indices and grey, 15, 16, 24 or 32 for colour.
    let depth: Int
    /// The descriptor's count of alpha bits per pixel (0…15).
    let alphaBits: Int
    /// Rows are stored top row first (descriptor bit 5); else bottom row first.
    let isTopDown: Bool
    /// Columns are stored right to left (descriptor bit 4).
    let isRightToLeft: Bool
    /// The colour map: its first index, its entry count and bits per entry.
    let mapFirst: Int
    let mapLength: Int
    let mapEntryBits: Int
    /// Where the colour map and the pixel data start.
    let mapOffset: Int
    let pixelOffset: Int
    let alphaUse: AlphaUse

    /// Bytes per stored pixel value.
    var bytesPerPixel: Int { (depth + 7) / 8 }
    /// Bytes per colour map entry.
    var bytesPerMapEntry: Int { (mapEntryBits + 7) / 8 }

    init(_ file: ByteReader) throws {
        guard let idLength = file.u8(0), let mapType = file.u8(1), let imageType = file.u8(2),
            let mapFirst = file.u16le(3), let mapLength = file.u16le(5), let mapBits = file.u8(7),
            let width = file.u16le(12), let height = file.u16le(14), let depth = file.u8(16), let descriptor = file.u8(17)
        else {
            throw DarkroomError.truncated(.tga, detail: "the header needs 18 bytes, the file has \(file.count)")
        }
        switch imageType {
        case 1, 9: kind = .colorMapped
        case 2, 10: kind = .trueColor
        case 3, 11: kind = .grey
        case 0: throw DarkroomError.corrupt(.tga, detail: "image type 0 (no image data)")
        default: throw DarkroomError.unsupportedFormat(.tga, reason: "image type \(imageType) (only 1–3 and 9–11 exist)")
        }
        isRunLength = imageType >= 9
        guard width > 0, height > 0 else { throw DarkroomError.invalidDimensions(.tga, width: width, height: height) }
        let depths: [Int] = switch kind {
        case .colorMapped: [8, 16]
        case .trueColor: [15, 16, 24, 32]
        case .grey: [8, 16]
        }
        guard depths.contains(depth) else {
            throw DarkroomError.corrupt(.tga, detail: "\(depth) bits per pixel in a \(kind) image (expected \(depths.map(String.init).joined(separator: ", ")))")
        }
        guard mapType <= 1 else { throw DarkroomError.corrupt(.tga, detail: "colour map type \(mapType) (expected 0 or 1)") }
        if kind == .colorMapped {
            guard mapType == 1, mapLength > 0 else { throw DarkroomError.corrupt(.tga, detail: "a colour-mapped image without a colour map") }
        }
        if mapType == 1, mapLength > 0 {
            guard [15, 16, 24, 32].contains(mapBits) else {
                throw DarkroomError.corrupt(.tga, detail: "\(mapBits)-bit colour map entries (expected 15, 16, 24 or 32)")
            }
        }
        self.width = width
        self.height = height
        self.depth = depth
        alphaBits = descriptor & 0x0F
        isTopDown = descriptor & 0x20 != 0
        isRightToLeft = descriptor & 0x10 != 0
        self.mapFirst = mapFirst
        self.mapLength = mapType == 1 ? mapLength : 0
        mapEntryBits = mapBits
        mapOffset = 18 + idLength
        pixelOffset = mapOffset + self.mapLength * ((mapBits + 7) / 8)
        guard pixelOffset <= file.count else {
            throw DarkroomError.truncated(.tga, detail: "the colour map ends at byte \(pixelOffset), past the file's \(file.count)")
        }
        alphaUse = Self.alphaUse(file)
    }

    /// The attributes type of a TGA 2.0 extension area (the footer's `TRUEVISION-XFILE.`
    /// signature, the extension area's byte 494), when the file has one that lies inside it.
    private static func alphaUse(_ file: ByteReader) -> AlphaUse {
        let footer = file.count - 26
        guard footer >= 18, file.starts(with: "TRUEVISION-XFILE.", at: footer + 8),
            let offset = file.u32le(footer), offset >= 18, offset + 495 <= footer, let type = file.u8(offset + 494)
        else { return .unspecified }
        switch type {
        case 3: return .straight
        case 4: return .premultiplied
        default: return .none
        }
    }
}
