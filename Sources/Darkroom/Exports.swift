// MARK: - Re-exports

// `import Darkroom` is enough to embed the pipeline, configure it from filters.d and extend it:
// the core vocabulary (Image, sizes, options, errors, and the ImageSource, ImageDecoder,
// ImageFilter, ImageEncoder and ImageCache protocols), configuration loading with its
// file:line diagnostics, and the file source. Codecs, filters and the HTTP source stay in
// their own modules; the standard wiring (`Registry.standard`) reaches them.
@_exported import DarkroomCore
@_exported import DarkroomConfig
@_exported import struct DarkroomSources.FileSource
@_exported import class DarkroomCache.DiskCache
@_exported import class DarkroomCache.EncodedImageMemoryCache
