// MARK: - Re-exports

// `import Darkroom` is enough to embed the pipeline, configure it from filters.d and extend it:
// the core vocabulary (Image, sizes, options, errors, and the ImageSource, ImageDecoder,
// ImageFilter, ImageEncoder and ImageCache protocols), configuration loading with its
// file:line diagnostics, the file source and file reading and atomic writing, and the standard filters with their typed steps
// (`FilterStep`: `.aspectFill(width: 128, height: 128)`, `.circle`). Codecs and the HTTP source
// stay in their own modules; the standard wiring (`Registry.standard`) reaches them.
@_exported import DarkroomCore
@_exported import DarkroomFilters
@_exported import DarkroomConfig
@_exported import struct DarkroomSources.FileSource
@_exported import enum DarkroomSources.FileBytes
@_exported import enum DarkroomSources.AtomicFileWriter
@_exported import class DarkroomCache.DiskCache
@_exported import class DarkroomCache.EncodedImageMemoryCache
