import DarkroomCore

// MARK: - DecodeCost

/// How many bytes of pixels a decode will hold, estimated from the header and the size hint
/// before decoding — what the processing queue's memory budget counts.
enum DecodeCost {
    /// RGBA bytes of the decoded image: JPEG decoders shrink on load by 1/2, 1/4 or 1/8 while
    /// the result still covers the hint; other formats decode at full size.
    static func estimatedBytes(header: ImageHeader, options: DecodeOptions) -> Int {
        var size = header.size
        if header.format == .jpeg, let hint = options.sizeHint {
            let upright = options.appliesOrientation ? header.uprightSize : header.size
            var denominator = 1
            for candidate in [2, 4, 8] {
                let width = (upright.width + candidate - 1) / candidate
                let height = (upright.height + candidate - 1) / candidate
                guard width >= hint.width, height >= hint.height else { break }
                denominator = candidate
            }
            size = PixelSize(
                width: (size.width + denominator - 1) / denominator, height: (size.height + denominator - 1) / denominator)
        }
        return max(1, size.width * size.height * Image.bytesPerPixel)
    }
}
