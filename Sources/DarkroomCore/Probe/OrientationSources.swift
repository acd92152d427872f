// MARK: - Orientation beyond the EXIF block

/// The orientation an XMP packet records in `tiff:Orientation`, as an attribute
/// (`tiff:Orientation="6"`) or an element (`<tiff:Orientation>6</tiff:Orientation>`): the match
/// Pillow makes when a file has no EXIF orientation.
///
/// ```swift
/// XMPOrientation.read(Array(#"<rdf:Description tiff:Orientation="6"/>"#.utf8))   // .right
/// ```
public enum XMPOrientation {
    static let name: [UInt8] = Array("tiff:Orientation".utf8)

    /// The recorded orientation; `nil` when the packet records none, or a value outside 1…8.
    public static func read(_ packet: [UInt8]) -> Orientation? {
        valueRange(in: packet).map { Orientation(exifValue: Int(packet[$0.lowerBound] - 0x30)) }
    }

    /// `packet` with its orientation value set to 1; unchanged when it records none.
    public static func resettingToUp(_ packet: [UInt8]) -> [UInt8] {
        guard let range = valueRange(in: packet) else { return packet }
        var out = packet
        out[range.lowerBound] = 0x31
        return out
    }

    /// Where the single digit 1…8 after `tiff:Orientation="` or `tiff:Orientation>` is.
    static func valueRange(in packet: [UInt8]) -> Range<Int>? {
        var start = 0
        while let at = firstIndex(of: name, in: packet, from: start) {
            var index = at + name.count
            start = index
            if index < packet.count, packet[index] == UInt8(ascii: "=") {
                index += 1
                guard index < packet.count, packet[index] == UInt8(ascii: "\"") || packet[index] == UInt8(ascii: "'") else { continue }
                index += 1
            } else if index < packet.count, packet[index] == UInt8(ascii: ">") {
                index += 1
            } else {
                continue
            }
            // One digit, then the end of the value.
            guard index + 1 < packet.count, (0x31...0x38).contains(packet[index]), !(0x30...0x39).contains(packet[index + 1]) else {
                return nil
            }
            return index..<index + 1
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count, from <= haystack.count - needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

// MARK: - PNG text chunks

/// The keyword and text of a PNG `tEXt`, `zTXt` or `iTXt` chunk, inflated when compressed.
enum PNGTextChunk {
    /// Compressed text inflates to at most this much: XMP packets and EXIF profiles are kilobytes.
    static let maximumText = 8 << 20

    /// The keyword alone, without inflating anything.
    static func keyword(_ data: UnsafeRawBufferPointer) -> String? {
        guard let nul = data.firstIndex(of: 0), nul > 0, nul < 80 else { return nil }
        return String(decoding: data[..<nul], as: UTF8.self)
    }

    static func read(type: String, _ data: UnsafeRawBufferPointer) -> (keyword: String, text: [UInt8])? {
        guard let nul = data.firstIndex(of: 0), nul > 0, nul < 80 else { return nil }
        let keyword = String(decoding: data[..<nul], as: UTF8.self)
        let rest = Array(data[(nul + 1)...])
        switch type {
        case "tEXt":
            return (keyword, rest)
        case "zTXt":
            guard rest.first == 0 else { return nil }
            return Inflate.zlib(Array(rest.dropFirst()), maxOutput: maximumText).map { (keyword, $0) }
        case "iTXt":
            // Compression flag and method, language tag, NUL, translated keyword, NUL, text.
            guard rest.count >= 2 else { return nil }
            let compressed = rest[0] == 1
            var index = 2
            for _ in 0..<2 {
                guard let end = rest[index...].firstIndex(of: 0) else { return nil }
                index = end + 1
            }
            let text = Array(rest[index...])
            return compressed ? Inflate.zlib(text, maxOutput: maximumText).map { (keyword, $0) } : (keyword, text)
        default:
            return nil
        }
    }
}

// MARK: - ImageMagick's raw profiles

/// The bytes of a profile ImageMagick stores in a PNG text chunk (`Raw profile type exif`,
/// `… APP1`): a newline, the profile's name, its length in decimal, then the bytes in
/// hexadecimal over several lines.
enum RawProfile {
    static let exifKeywords: Set<String> = ["Raw profile type exif", "Raw profile type APP1"]

    static func bytes(_ text: [UInt8]) -> [UInt8]? {
        var index = 0
        func skip(_ isSkipped: (UInt8) -> Bool) { while index < text.count, isSkipped(text[index]) { index += 1 } }
        skip { $0 == 0x0A || $0 == 0x20 }
        skip { $0 != 0x0A }  // the name
        skip { $0 == 0x0A || $0 == 0x20 }
        var length = 0
        while index < text.count, (0x30...0x39).contains(text[index]) {
            length = length * 10 + Int(text[index] - 0x30)
            guard length <= text.count / 2 else { return nil }
            index += 1
        }
        guard length > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        while index < text.count, bytes.count < length {
            let character = text[index]
            index += 1
            let nibble: UInt8
            switch character {
            case 0x30...0x39: nibble = character - 0x30
            case 0x61...0x66: nibble = character - 0x61 + 10
            case 0x41...0x46: nibble = character - 0x41 + 10
            case 0x0A, 0x0D, 0x20: continue
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == length ? bytes : nil
    }
}
