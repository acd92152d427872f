import DarkroomBMP
import DarkroomTGA
import DarkroomTIFF
import DarkroomCore
import DarkroomCurl
import DarkroomFilters
import DarkroomGD
import DarkroomJPEG
import DarkroomPNG
import DarkroomWebP
import DarkroomSources

// MARK: - The standard wiring

extension Registry {
    /// Darkroom's default components, fastest first:
    ///
    /// | job | asked in order |
    /// | --- | --- |
    /// | decode JPEG | libjpeg-turbo (DCT shrink-on-load), then libgd |
    /// | decode PNG | libpng (8/16-bit, exact alpha), then libgd |
    /// | decode WebP | libwebp (exact alpha), then libgd |
    /// | decode BMP | darkroom-bmp (pure Swift: bit fields, RLE, exact 8-bit alpha) |
    /// | decode TGA | darkroom-tga (pure Swift: every type, depth and origin; RLE; alpha) |
    /// | decode TIFF | libtiff (every page, depth, colour model and orientation) |
    /// | decode GIF, AVIF, HEIF | libgd |
    /// | encode JPEG / PNG / WebP | libjpeg-turbo / libpng / libwebp |
    /// | encode TIFF | libtiff (8-bit alpha, Deflate) |
    /// | encode AVIF, GIF, BMP | libgd |
    ///
    /// ```swift
    /// let image = try Registry.standard.decode(bytes)
    /// ```
    public static let standard: Registry = {
        var registry = Registry()
        registry.registerStandardCodecs()
        registry.registerStandardFilters()
        registry.registerStandardCacheKinds()
        registry.registerStandardSourceKinds()
        return registry
    }()


    /// ``standard`` serving files under `fileRoot` and, unless `http` is `nil`, http(s) URLs
    /// with those settings: what an app embedding the pipeline usually wants.
    ///
    /// ```swift
    /// let registry = try Registry.standard(fileRoot: "/srv/images")
    /// let pipeline = ImagePipeline(configuration: .init(registry: registry, targets: targets))
    /// let avatar = try await pipeline.image(for: "cats/tom.jpg", variant: "avatar")
    /// ```
    /// - Throws: `DarkroomError/io(path:detail:)` when `fileRoot` is not a folder.
    public static func standard(fileRoot: String, http: HTTPSourceSettings? = HTTPSourceSettings()) throws -> Registry {
        var registry = standard
        registry.register(source: try FileSource(root: fileRoot))
        if let http { registry.register(source: HTTPSource(settings: http)) }
        return registry
    }

    /// The standard codecs only (what the overlay filter decodes its image with).
    public static let standardCodecs: Registry = {
        var registry = Registry()
        registry.registerStandardCodecs()
        return registry
    }()

    /// Registers DarkroomFilters' standard filters, and `overlay` decoding its image file
    /// with the standard codecs (a relative path is relative to the working directory). An
    /// overlay file that cannot be read or decoded is named in the error (as an I/O error on
    /// its path), not mistaken for the image being rendered.
    public mutating func registerStandardFilters() {
        for schema in StandardFilters.schemas {
            register(filter: schema, origin: "DarkroomFilters")
        }
        register(
            filter: StandardFilters.overlaySchema(loadingWith: { path in
                let bytes = try FileBytes.read(path)  // its errors name the path already
                do {
                    return try Registry.standardCodecs.decode(bytes)
                } catch {
                    throw DarkroomError.io(path: path, detail: "\(error)")
                }
            }),
            origin: "DarkroomFilters")
    }

    /// Appends the standard decoders and encoders (see ``standard``).
    public mutating func registerStandardCodecs() {
        register(decoder: JPEGDecoder())
        register(decoder: PNGDecoder())
        register(decoder: WebPDecoder())
        register(decoder: BMPDecoder())
        register(decoder: TGADecoder())
        register(decoder: TIFFDecoder())
        register(decoder: GIFAnimationDecoder())
        register(decoder: GDDecoder())

        register(encoder: JPEGEncoder())
        register(encoder: PNGEncoder())
        register(encoder: WebPEncoder())
        register(encoder: TIFFEncoder())
        for format in [ImageFormat.avif, .gif, .bmp] where GDEncoder.supports(format) {
            register(encoder: GDEncoder(format: format))
        }
    }
}

// MARK: - The standard codecs' own output

extension Registry {
    /// Routes what the standard codecs' C libraries print on their own (dav1d and libheif,
    /// through libgd) into the error of the call that made them print, instead of the
    /// process's standard error. Call it once, first thing in an executable; it returns whether
    /// C's `stderr` could be replaced (it can on glibc).
    ///
    /// ```swift
    /// Registry.routeCodecOutputIntoErrors()
    /// // darkroom: error: bad.avif: cannot decode AVIF: …: Unknown OBU type 14 of size 151
    /// ```
    @discardableResult
    public static func routeCodecOutputIntoErrors() -> Bool {
        CodecOutput.routeIntoErrors()
    }
}
