import Darkroom
import DarkroomCache
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Caches

@Suite("The pipeline serves from memory, then disk, then renders; originals are revalidated")
struct PipelineCacheTests {
    func photoFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try AtomicFileWriter.write(PipelineFixture.photoJPEG, to: folder.path("cat.jpg"))
        return folder
    }

    /// The photo folder and a cache folder; each ``pipeline(counters:)`` is a new process's
    /// pipeline over them (a new memory layer, the same disk layer).
    struct DiskBacked {
        let folder: TemporaryDirectory
        let cacheFolder: TemporaryDirectory
        let files: FileSource

        func pipeline(counters: StageCounters? = nil) throws -> ImagePipeline {
            var configuration = PipelineFixture.configuration(source: files, disk: try DiskCache(directory: cacheFolder.url.path))
            configuration.counters = counters
            return ImagePipeline(configuration: configuration)
        }
    }

    func diskBacked() throws -> DiskBacked {
        let folder = try photoFolder()
        return DiskBacked(folder: folder, cacheFolder: try TemporaryDirectory(), files: try FileSource(root: folder.url.path))
    }

    @Test("rendered, then memory in the same pipeline, then disk in a new one; an edited file renders again")
    func layers() async throws {
        let stores = try diskBacked()
        let first = try stores.pipeline()
        let rendered = try await first.image(for: "cat.jpg", variant: "circle")
        let memory = try await first.image(for: "cat.jpg", variant: "circle")
        #expect(rendered.cacheLayer == .rendered && rendered.image != nil)
        #expect(memory.cacheLayer == .memory && memory.image == nil && memory.bytes == rendered.bytes)
        #expect(first.cachedImage(for: "cat.jpg", variant: "circle")?.bytes == rendered.bytes)

        let counters = StageCounters()
        let restarted = try stores.pipeline(counters: counters)
        let disk = try await restarted.image(for: "cat.jpg", variant: "circle")
        #expect(disk.cacheLayer == .disk && disk.bytes == rendered.bytes)
        #expect(try await restarted.image(for: "cat.jpg", variant: "circle").cacheLayer == .memory)
        #expect(counters.decodes == 0)

        let wanted = try await restarted.request(ImageRequest(location: "cat.jpg", variant: .named("circle"), wantsImage: true)).response
        #expect(wanted.cacheLayer == .memory && wanted.image?.size == PixelSize(width: 64, height: 64))

        let edited = try PipelineFixture.registry.encode(Pattern.photo(width: 300, height: 200), options: EncodeOptions(format: .jpeg))
        try AtomicFileWriter.write(edited, to: stores.folder.path("cat.jpg"))
        #expect(try await restarted.image(for: "cat.jpg", variant: "circle").cacheLayer == .rendered)
    }

    @Test("a render carries its bytes' digest, and memory keeps it: hits from memory, and disk hits copied up, bring it")
    func digests() async throws {
        #expect(ContentDigest.of(Array("hello".utf8)) == "2cf24dba5fb0a30e26e83b2ac5b9e29e")
        let stores = try diskBacked()
        let first = try stores.pipeline()
        let rendered = try await first.image(for: "cat.jpg", variant: "circle")
        let memory = try await first.image(for: "cat.jpg", variant: "circle")
        let expected = ContentDigest.of(rendered.bytes)
        #expect(rendered.contentDigest == expected)
        #expect(memory.cacheLayer == .memory && memory.contentDigest == expected)
        #expect(first.cachedImage(for: "cat.jpg", variant: "circle")?.contentDigest == expected)

        // The disk layer does not keep the digest; the copy into memory gets it.
        let restarted = try stores.pipeline()
        let disk = try await restarted.image(for: "cat.jpg", variant: "circle")
        #expect(disk.cacheLayer == .disk && disk.contentDigest == expected)
        let filled = try await restarted.image(for: "cat.jpg", variant: "circle")
        #expect(filled.cacheLayer == .memory && filled.contentDigest == expected)
        let several = try await restarted.images(for: "cat.jpg", variants: ["circle", "rounded"])
        #expect(several.map(\.contentDigest) == several.map { ContentDigest.of($0.bytes) })
    }

    @Test("renders stored by CachingRenderer are found by the pipeline (same keys)")
    func sharedKeys() async throws {
        let folder = try photoFolder()
        let cacheFolder = try TemporaryDirectory()
        let disk = try DiskCache(directory: cacheFolder.url.path)
        let cli = CachingRenderer(renderer: VariantRenderer(registry: PipelineFixture.registry), caches: .standard(disk: disk))
        let made = try cli.render(.file(folder.path("cat.jpg")), targets: [PipelineFixture.rounded])
        let pipeline = ImagePipeline(configuration: PipelineFixture.configuration(
            source: try FileSource(root: folder.url.path), disk: disk))
        let response = try await pipeline.image(for: "cat.jpg", variant: "rounded")
        #expect(response.cacheLayer == .disk && response.bytes == made[0].bytes)
    }

    func originals(_ origin: RevalidatingSource, cacheFolder: TemporaryDirectory) throws -> ImagePipeline {
        var configuration = PipelineFixture.configuration(
            source: origin, memory: EncodedImageMemoryCache(), disk: try DiskCache(directory: cacheFolder.url.path))
        configuration.caches = configuration.caches.keepingOriginals(in: "disk")
        return ImagePipeline(configuration: configuration)
    }

    @Test("a fresh stored original is reused without asking the source")
    func freshOriginal() async throws {
        let cacheFolder = try TemporaryDirectory()
        let origin = RevalidatingSource(bytes: PipelineFixture.photoJPEG, maxAge: 3600)
        let pipeline = try originals(origin, cacheFolder: cacheFolder)
        #expect(try await pipeline.image(for: "origin:cat", variant: "circle").cacheLayer == .rendered)
        let second = try await pipeline.image(for: "origin:cat", variant: "gray")
        #expect(second.cacheLayer == .rendered)
        let original = try await pipeline.request(ImageRequest(location: "origin:cat", variant: .original)).response
        #expect(original.cacheLayer == .disk && original.bytes == PipelineFixture.photoJPEG)
        #expect(origin.fullLoads == 1 && origin.sentValidators.count == 1)
    }

    @Test("a stale stored original is revalidated: not modified reuses it, a change loads the new bytes")
    func staleOriginal() async throws {
        let cacheFolder = try TemporaryDirectory()
        let origin = RevalidatingSource(bytes: PipelineFixture.photoJPEG, maxAge: 0)
        let pipeline = try originals(origin, cacheFolder: cacheFolder)
        let first = try await pipeline.image(for: "origin:cat", variant: "circle")
        let second = try await pipeline.image(for: "origin:cat", variant: "rounded")
        #expect(origin.sentValidators == [nil, "\"v1\""])
        #expect(origin.fullLoads == 1 && origin.notModifiedAnswers == 1)
        #expect(first.cacheLayer == .rendered && second.cacheLayer == .rendered)

        let changed = try PipelineFixture.registry.encode(Pattern.photo(width: 200, height: 100), options: EncodeOptions(format: .jpeg))
        origin.replace(with: changed)
        let original = try await pipeline.request(ImageRequest(location: "origin:cat", variant: .original)).response
        #expect(original.bytes == changed && original.cacheLayer == .source)
        #expect(origin.fullLoads == 2 && origin.sentValidators.last == "\"v1\"")
    }

    @Test("bytes the source says not to store are kept in no cache")
    func noStore() async throws {
        let cacheFolder = try TemporaryDirectory()
        let origin = RevalidatingSource(bytes: PipelineFixture.photoJPEG, maxAge: 3600)
        origin.setNoStore(true)
        let pipeline = try originals(origin, cacheFolder: cacheFolder)
        _ = try await pipeline.image(for: "origin:cat", variant: "circle")
        let again = try await pipeline.image(for: "origin:cat", variant: "circle")
        #expect(again.cacheLayer == .rendered)
        #expect(origin.fullLoads == 2 && origin.sentValidators == [nil, nil])
    }
}
