import DarkroomCore

// MARK: - BMPRunLength

/// Decodes BI_RLE8 and BI_RLE4 pixel data into a canvas that starts transparent black.
///
/// The data is a sequence of two-byte commands, from the first stored row:
/// - `n, v` (n > 0): a run of n pixels — RLE8 all index v, RLE4 alternating v's high and
///   low nibble;
/// - `0, 0`: end of line (next row, x = 0); `0, 1`: end of bitmap;
/// - `0, 2, dx, dy`: delta — skip right dx and down dy, leaving pixels unwritten;
/// - `0, n` (n ≥ 3): n literal indices (bytes, or nibbles high first), padded to an even
///   number of bytes.
///
/// Pixels the data never writes (skipped by a delta, or rows ended early) stay transparent
/// black, as browsers show them. Pixels past the right edge are dropped.
///
/// ```swift
/// let allWritten = try BMPRunLength.decode(file, header: header, into: canvas)
/// ```
enum BMPRunLength {
    /// Decodes into `canvas`, whose pixels must all be zero.
    /// - Returns: `complete`: every pixel was written (the image is opaque); `cut`: the data
    ///   ended early and `options.failOn` let it through (the pixels written are kept).
    /// - Throws: `.truncated` when the data ends before the end-of-bitmap marker with pixels
    ///   left to write (unless `options.failOn` lets it through), `.corrupt` for a palette index
    ///   past the palette.
    static func decode(
        _ file: ByteReader, header: BMPHeader, options: DecodeOptions, into canvas: BMPCanvas
    ) throws -> (complete: Bool, cut: Bool) {
        do {
            return (try decodeRuns(file, header: header, into: canvas), false)
        } catch let DarkroomError.truncated(format, detail) {
            if options.stops(on: .truncated, warning: DecodeWarning(format: format, damage: .truncated, detail: detail)) {
                throw DarkroomError.truncated(format, detail: detail)
            }
            return (false, true)
        }
    }

    private static func decodeRuns(_ file: ByteReader, header: BMPHeader, into canvas: BMPCanvas) throws -> Bool {
        let isRLE4 = header.compression == .rle4
        let data = UnsafeRawBufferPointer(rebasing: file.bytes[header.dataOffset...])
        let palette = header.palette
        let width = canvas.width, height = canvas.height
        var at = 0, x = 0, row = 0
        var written = 0

        // Writes one palette index at (x, row) and moves right.
        func put(_ index: Int) throws {
            defer { x += 1 }
            guard x < width else { return }
            guard index < palette.count else {
                throw BMPPixelReaders.outOfPalette(index: index, x: x, y: canvas.imageRow(row), paletteCount: palette.count)
            }
            canvas.set(x: x, storedRow: row, palette[index])
            written += 1
        }

        while row < height {
            guard at + 2 <= data.count else {
                // Some writers stop right after the last pixel, without the end markers.
                if row == height - 1, x >= width { break }
                throw DarkroomError.truncated(
                    .bmp, detail: "the \(header.compression) data ends at row \(row) of \(height) before its end-of-bitmap marker")
            }
            let count = Int(data[at]), value = Int(data[at + 1])
            at += 2
            if count > 0 {
                // An encoded run; only its first `width - x` pixels are visible.
                let visible = max(0, min(count, width - x))
                for k in 0..<visible {
                    try put(isRLE4 ? (k & 1 == 0 ? value >> 4 : value & 0x0F) : value)
                }
                x += count - visible
                continue
            }
            switch value {
            case 0:  // end of line
                x = 0
                row += 1
            case 1:  // end of bitmap
                return written == width * height
            case 2:  // delta
                guard at + 2 <= data.count else {
                    throw DarkroomError.truncated(.bmp, detail: "the \(header.compression) data ends inside a delta at row \(row)")
                }
                x += Int(data[at])
                row += Int(data[at + 1])
                at += 2
            default:  // absolute run of `value` indices
                let byteCount = isRLE4 ? (value + 1) / 2 : value
                guard at + byteCount <= data.count else {
                    throw DarkroomError.truncated(
                        .bmp, detail: "the \(header.compression) data ends inside a literal run at row \(row)")
                }
                for k in 0..<value {
                    let byte = Int(data[at + (isRLE4 ? k >> 1 : k)])
                    try put(isRLE4 ? (k & 1 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                }
                at += byteCount + (byteCount & 1)  // literal runs are padded to 16 bits
            }
        }
        return written == width * height
    }
}
