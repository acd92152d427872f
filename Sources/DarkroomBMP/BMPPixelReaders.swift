import DarkroomCore

// MARK: - BMPCanvas

/// The output RGBA8 buffer, addressed by the rows as the file stores them (bottom-up unless
/// the header's height was negative).
///
/// ```swift
/// canvas.set(x: 0, storedRow: 0, BMPCanvas.pack(255, 0, 0, 255))  // bottom-left red
/// ```
struct BMPCanvas {
    let base: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let isTopDown: Bool

    /// An RGBA8 pixel as the 32-bit value whose little-endian bytes are R, G, B, A.
    @inline(__always)
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    /// The image row (0 at the top) of the `storedRow`-th row in the file.
    @inline(__always)
    func imageRow(_ storedRow: Int) -> Int { isTopDown ? storedRow : height - 1 - storedRow }

    @inline(__always)
    func set(x: Int, storedRow: Int, _ pixel: UInt32) {
        let index = imageRow(storedRow) * width + x
        base.storeBytes(of: pixel.littleEndian, toByteOffset: index * 4, as: UInt32.self)
    }

    /// Sets every alpha byte to 255 (a 32-bit file whose fourth bytes were all zero).
    func makeOpaque() {
        var offset = 3
        let end = width * height * 4
        while offset < end {
            base.storeBytes(of: 255, toByteOffset: offset, as: UInt8.self)
            offset += 4
        }
    }
}

// MARK: - Uncompressed pixels

/// Reads BI_RGB, BI_BITFIELDS and BI_ALPHABITFIELDS pixel data: rows padded to 4 bytes,
/// palette indices for 1/2/4/8 bits, masked values for 16/32 bits, B-G-R bytes for 24.
enum BMPPixelReaders {
    /// What the alpha bytes written held, for the decoder's alpha rule.
    struct AlphaSummary {
        /// Some pixel's alpha is not 0.
        var anyNonZero = false
        /// Some pixel's alpha is not 255.
        var anyTranslucent = false
    }

    /// The bytes from one stored row to the next, and how many stored rows the file holds (the
    /// last one's padding may be missing) — checked before any pixel memory is allocated.
    /// - Throws: `.truncated` naming how many rows the data holds, when some are missing and
    ///   `options.failOn` stops on truncation (otherwise the rows there are decoded).
    static func rowLayout(_ file: ByteReader, header: BMPHeader, options: DecodeOptions) throws -> (stride: Int, rows: Int) {
        let (rowBits, overflow) = header.width.multipliedReportingOverflow(by: header.bitCount)
        let rowStride = ((rowBits + 31) / 32) * 4
        let lastRow = (rowBits + 7) / 8  // the last row's padding is often left out
        let (before, overflow2) = rowStride.multipliedReportingOverflow(by: header.height - 1)
        let (needed, overflow3) = before.addingReportingOverflow(lastRow)
        let available = file.count - header.dataOffset
        guard !overflow, !overflow2, !overflow3, needed <= available else {
            let rows = available < lastRow || rowStride <= 0 ? 0 : min(header.height, (available - lastRow) / rowStride + 1)
            let detail = "the pixel data holds \(available) bytes from offset \(header.dataOffset), "
                + "\(rows) of \(header.height) rows of \(rowStride) bytes"
            if overflow || overflow2 || overflow3
                || options.stops(on: .truncated, warning: DecodeWarning(format: .bmp, damage: .truncated, detail: detail)) {
                throw DarkroomError.truncated(.bmp, detail: detail)
            }
            return (rowStride, rows)
        }
        return (rowStride, header.height)
    }

    /// Decodes the first `rows` stored rows at `header.dataOffset`, `rowStride` bytes apart (from
    /// ``rowLayout(_:header:options:)``), into `canvas`.
    /// - Returns: the alpha seen, when the pixels have an alpha channel; `nil` when opaque.
    /// - Throws: `.corrupt` for a palette index past the palette.
    static func read(
        _ file: ByteReader, header: BMPHeader, rowStride: Int, rows: Int, into canvas: BMPCanvas
    ) throws -> AlphaSummary? {
        guard let start = file.bytes.baseAddress?.advanced(by: header.dataOffset) else {
            throw DarkroomError.emptyInput
        }
        for storedRow in 0..<rows {
            let row = start.advanced(by: storedRow * rowStride)
            switch header.bitCount {
            case 24: readBGR(row, storedRow: storedRow, canvas: canvas)
            case 16, 32: break
            default: try readIndices(row, storedRow: storedRow, header: header, canvas: canvas)
            }
        }
        guard let masks = header.masks else { return nil }
        return readMasked(start, rowStride: rowStride, rows: rows, bytesPerPixel: header.bitCount / 8, masks: masks, canvas: canvas)
    }

    // MARK: - Palette indices

    private static func readIndices(
        _ row: UnsafeRawPointer, storedRow: Int, header: BMPHeader, canvas: BMPCanvas
    ) throws {
        let bits = header.bitCount
        let valueMask = (1 << bits) - 1
        let palette = header.palette
        for x in 0..<canvas.width {
            let bit = x * bits
            let byte = Int(row.load(fromByteOffset: bit >> 3, as: UInt8.self))
            let index = (byte >> (8 - bits - (bit & 7))) & valueMask
            guard index < palette.count else {
                throw outOfPalette(index: index, x: x, y: canvas.imageRow(storedRow), paletteCount: palette.count)
            }
            canvas.set(x: x, storedRow: storedRow, palette[index])
        }
    }

    /// The error for a pixel whose index has no palette entry.
    static func outOfPalette(index: Int, x: Int, y: Int, paletteCount: Int) -> DarkroomError {
        .corrupt(
            .bmp, detail: "pixel (\(x), \(y)) uses palette index \(index), but the palette has only \(paletteCount) colours")
    }

    // MARK: - Direct colour

    private static func readBGR(_ row: UnsafeRawPointer, storedRow: Int, canvas: BMPCanvas) {
        for x in 0..<canvas.width {
            let at = x * 3
            let b = row.load(fromByteOffset: at, as: UInt8.self)
            let g = row.load(fromByteOffset: at + 1, as: UInt8.self)
            let r = row.load(fromByteOffset: at + 2, as: UInt8.self)
            canvas.set(x: x, storedRow: storedRow, BMPCanvas.pack(r, g, b, 255))
        }
    }

    /// 16- and 32-bit pixels through `masks`, noting the alpha written when there is a mask for it.
    private static func readMasked(
        _ start: UnsafeRawPointer, rowStride: Int, rows: Int, bytesPerPixel: Int, masks: BMPMasks, canvas: BMPCanvas
    ) -> AlphaSummary? {
        var alphaOr: UInt32 = 0
        var alphaAnd: UInt32 = 0xFF
        let bytes = bytesPerPixel == 4 ? masks.byteShifts : nil
        for storedRow in 0..<rows {
            let row = start.advanced(by: storedRow * rowStride)
            for x in 0..<canvas.width {
                let pixel: UInt32
                if let bytes {
                    // The common case, without scaling tables: every channel is one byte.
                    let value = UInt64(UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)))
                    let alpha = bytes.alpha == 32 ? 0xFF : value >> UInt64(bytes.alpha) & 0xFF
                    pixel = UInt32(truncatingIfNeeded: value >> UInt64(bytes.red) & 0xFF | (value >> UInt64(bytes.green) & 0xFF) << 8
                        | (value >> UInt64(bytes.blue) & 0xFF) << 16 | alpha << 24)
                } else if bytesPerPixel == 2 {
                    pixel = masks.rgba(UInt32(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: x * 2, as: UInt16.self))))
                } else {
                    pixel = masks.rgba(UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)))
                }
                alphaOr |= pixel >> 24
                alphaAnd &= pixel >> 24
                canvas.set(x: x, storedRow: storedRow, pixel)
            }
        }
        guard masks.hasAlpha else { return nil }
        return AlphaSummary(anyNonZero: alphaOr != 0, anyTranslucent: alphaAnd != 0xFF)
    }
}
