// MARK: - Animation

/// The frames after the first of an animated image (GIF, WebP), and how every frame plays.
///
/// An animated ``Image`` is its first frame, with ``Image/animation`` holding the rest. Every
/// frame is a whole canvas, composed as a viewer shows it (each GIF or WebP frame drawn over
/// what its predecessor's disposal left), and all frames have the first one's size. So a filter
/// runs on each frame alone (``ImageFilter/applyToEveryFrame(of:)``), and an encoder that
/// writes animations (``ImageEncoder/writesAnimation``) writes every frame with its timing.
///
/// ```swift
/// let gif = try registry.decode(bytes)                 // a 24-frame GIF
/// gif.animation?.frameCount                            // 24
/// gif.animation?.timings[0].delay                      // 80 (milliseconds)
/// let small = try resize.applyToEveryFrame(of: gif)    // 24 resized frames, same timings
/// ```
public struct Animation: Sendable, Equatable {
    /// How many times the animation plays; 0 is forever.
    public var loopCount: Int
    /// Each frame's delay and disposal, the first frame's first: ``frameCount`` entries.
    public var timings: [FrameTiming]
    /// Frames 2…n, each composed on the whole canvas and the first frame's size.
    public var laterFrames: [Image]

    /// Creates an animation from its later frames and every frame's timing.
    /// - Throws: ``DarkroomError/invalidArgument(name:value:expected:)`` when the timings do not
    ///   number one more than the later frames, or a frame's size differs from `size`.
    public init(loopCount: Int, timings: [FrameTiming], laterFrames: [Image], size: PixelSize) throws {
        guard timings.count == laterFrames.count + 1 else {
            throw DarkroomError.invalidArgument(
                name: "animation timings", value: "\(timings.count)", expected: "one per frame (\(laterFrames.count + 1))")
        }
        if let odd = laterFrames.first(where: { $0.size != size }) {
            throw DarkroomError.invalidArgument(
                name: "animation frame size", value: "\(odd.width)x\(odd.height)",
                expected: "every frame the first one's size, \(size.width)x\(size.height)")
        }
        self.loopCount = max(0, loopCount)
        self.timings = timings
        self.laterFrames = laterFrames
    }

    /// The number of frames, the first included.
    public var frameCount: Int { laterFrames.count + 1 }
}

// MARK: - FrameTiming

/// How long one frame shows, and what happens to the canvas after it.
public struct FrameTiming: Sendable, Hashable, Codable {
    /// Milliseconds the frame shows (GIF stores hundredths of a second; 0 means "as fast as the
    /// viewer goes", which browsers show as 100 ms).
    public var delay: Int
    /// What the canvas becomes after the frame, before the next is drawn.
    public var disposal: FrameDisposal

    /// A frame showing `delay` milliseconds, then disposed of as `disposal` says.
    public init(delay: Int, disposal: FrameDisposal = .none) {
        self.delay = max(0, delay)
        self.disposal = disposal
    }
}

/// What the canvas becomes after a frame (GIF's disposal methods; WebP has the first two).
///
/// Frames are kept composed, so the disposal changes nothing of a frame's own pixels; it is
/// kept so that an encoder writing only a frame's changed area knows what lies under it.
public enum FrameDisposal: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The frame stays; the next is drawn over it (GIF 0 "unspecified" and 1).
    case none = 1
    /// The frame's area is cleared to transparent.
    case background = 2
    /// The canvas goes back to what it was before the frame (GIF only).
    case previous = 3
}

// MARK: - Frames of an image

extension Image {
    /// The number of frames: 1 for a still image.
    public var frameCount: Int { animation?.frameCount ?? 1 }

    /// This image without its later frames: the first frame alone.
    public var firstFrame: Image {
        var still = self
        still.animation = nil
        return still
    }

    /// `transform` applied to each frame alone, the animation's timing kept; for a still image,
    /// `transform(self)`.
    ///
    /// ```swift
    /// let upright = try animated.mappingFrames { try options.orient($0, header: header) }
    /// ```
    /// - Throws: what `transform` throws, and
    ///   ``DarkroomError/invalidArgument(name:value:expected:)`` when it gives frames of
    ///   different sizes.
    public func mappingFrames(_ transform: (Image) throws -> Image) throws -> Image {
        guard let animation else { return try transform(self) }
        var output = try transform(firstFrame).firstFrame
        var frames: [Image] = []
        frames.reserveCapacity(animation.laterFrames.count)
        for frame in animation.laterFrames { frames.append(try transform(frame).firstFrame) }
        output.animation = try Animation(
            loopCount: animation.loopCount, timings: animation.timings, laterFrames: frames, size: output.size)
        return output
    }
}
