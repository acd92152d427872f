import DarkroomCore

// MARK: - DecodeCost

/// How many bytes of pixels a decode will hold, estimated from the header and the size hint
/// before decoding — what the processing queue's memory budget counts. The decoder the
/// registry picks says what size it will decode to (JPEG shrinks on load by 1/2, 1/4 or 1/8).
enum DecodeCost {
    static func estimatedBytes(header: ImageHeader, options: DecodeOptions, registry: Registry) -> Int {
        let size = (try? registry.decoder(for: header, options: options))?.decodedSize(for: header, options: options) ?? header.size
        return max(1, size.width * size.height * Image.bytesPerPixel)
    }
}
