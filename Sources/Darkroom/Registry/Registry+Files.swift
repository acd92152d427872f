import DarkroomCore
import DarkroomSources

// MARK: - Decoding files and writing encoded files

extension Registry {
    /// Reads the file at `path` (at most `options.limits.maxInputBytes`) and decodes it.
    ///
    /// ```swift
    /// let registry = Registry.standard
    /// let photo = try registry.decode(file: "photo.jpg", options: DecodeOptions(sizeHint: PixelSize(width: 256, height: 256)))
    /// let thumbnail = try photo.applying(.aspectFit(width: 256, height: 256))
    /// try registry.encode(thumbnail, options: EncodeOptions(format: .webp), toFile: "thumbnail.webp")
    /// ```
    /// - Throws: `DarkroomError/io(path:detail:)` naming the file when it cannot be read, and
    ///   ``decode(_:options:)``'s errors for its contents.
    public func decode(file path: String, options: DecodeOptions = DecodeOptions()) throws -> Image {
        try decode(FileBytes.read(path, maxBytes: options.limits.maxInputBytes), options: options)
    }

    /// Encodes `image` with `options` and writes the bytes to `path` atomically (a reader sees
    /// the old file or the whole new one), creating missing folders.
    /// - Throws: ``encode(_:options:)``'s errors, or `DarkroomError/io(path:detail:)` naming
    ///   the file when it cannot be written.
    public func encode(_ image: Image, options: EncodeOptions, toFile path: String) throws {
        try AtomicFileWriter.write(encode(image, options: options), to: path)
    }
}
