import Darkroom
import DarkroomCache
import DarkroomConfig
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - Rendering through the caches

@Suite("Rendering through the caches does the work once")
struct CachingRendererTests {
    let registry = Registry.standard

    func targets() throws -> [RenderTarget] {
        try [
            RenderTarget(name: "a", chain: FilterChain([registry.filter(parsing: "aspect-fill(height=32,width=32)"), registry.filter(parsing: "circle")]), encoding: VariantEncoding(format: .png)),
            RenderTarget(name: "b", chain: FilterChain([registry.filter(parsing: "aspect-fit(height=40,width=40)")]), encoding: VariantEncoding(format: .jpeg)),
        ]
    }

    func photoFile(in folder: TemporaryDirectory, name: String = "photo.jpg", seed: Int = 0) throws -> String {
        let path = folder.path(name)
        let bytes = try registry.encode(Pattern.photo(width: 200 + seed, height: 150), options: EncodeOptions(format: .jpeg))
        try AtomicFileWriter.write(bytes, to: path)
        return path
    }

    @Test("the second render in one process is served from memory with no decode, filter or encode")
    func memorySecondTime() throws {
        let folder = try TemporaryDirectory()
        let path = try photoFile(in: folder)
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: EncodedImageMemoryCache()))
        let first = StageCounters(), second = StageCounters()
        let a = try renderer.render(.file(path), targets: targets(), counters: first)
        let b = try renderer.render(.file(path), targets: targets(), counters: second)
        #expect(first.decodes == 1 && first.totalFilterRuns == 3 && first.encodes == 2)
        #expect(second.decodes == 0 && second.totalFilterRuns == 0 && second.encodes == 0)
        #expect(b.map(\.layer) == [.memory, .memory])
        #expect(a.map(\.bytes) == b.map(\.bytes))
    }

    @Test("a new process (new memory, same disk folder) is served from disk with no work")
    func diskAcrossRestarts() throws {
        let folder = try TemporaryDirectory()
        let cacheFolder = try TemporaryDirectory()
        let path = try photoFile(in: folder)
        let first = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: EncodedImageMemoryCache(), disk: try DiskCache(directory: cacheFolder.url.path)))
        let made = try first.render(.file(path), targets: targets())
        let restarted = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: EncodedImageMemoryCache(), disk: try DiskCache(directory: cacheFolder.url.path)))
        let counters = StageCounters()
        let again = try restarted.render(.file(path), targets: targets(), counters: counters)
        #expect(again.map(\.layer) == [.disk, .disk])
        #expect(counters.decodes == 0 && counters.totalFilterRuns == 0)
        #expect(again.map(\.bytes) == made.map(\.bytes))
        // Promoted to memory: the third time is a memory hit.
        #expect(try restarted.render(.file(path), targets: targets()).map(\.layer) == [.memory, .memory])
    }

    @Test("editing the source file means the old renders are never served")
    func editedSource() throws {
        let folder = try TemporaryDirectory()
        let path = try photoFile(in: folder)
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: EncodedImageMemoryCache()))
        let before = try renderer.render(.file(path), targets: targets())
        Thread.sleep(forTimeInterval: 0.01)
        _ = try photoFile(in: folder, seed: 40)  // same name, new content and size
        let counters = StageCounters()
        let after = try renderer.render(.file(path), targets: targets(), counters: counters)
        #expect(counters.decodes == 1)
        #expect(after.map(\.layer) == [.rendered, .rendered])
        #expect(after[1].bytes != before[1].bytes)
    }

    @Test("purging one source removes exactly its renders, in memory and on disk")
    func purgeBySource() throws {
        let folder = try TemporaryDirectory()
        let cacheFolder = try TemporaryDirectory()
        let one = try photoFile(in: folder, name: "one.jpg"), two = try photoFile(in: folder, name: "two.jpg", seed: 8)
        let memory = EncodedImageMemoryCache()
        let disk = try DiskCache(directory: cacheFolder.url.path)
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: memory, disk: disk))
        _ = try renderer.render(.file(one), targets: targets())
        _ = try renderer.render(.file(two), targets: targets())
        let key = SourceReference.absolutePath(one)
        #expect(memory.removeAll(forSource: key) == 2)
        #expect(disk.removeAll(forSource: key) == 2)
        let counters = StageCounters()
        let layers = try renderer.render(.file(two), targets: targets(), counters: counters).map(\.layer)
        #expect(layers == [.memory, .memory])
        #expect(try renderer.render(.file(one), targets: targets()).map(\.layer) == [.rendered, .rendered])
    }

    @Test("memory stays under its capacity while many distinct images are rendered")
    func boundedMemory() throws {
        let memory = EncodedImageMemoryCache(memoryCapacity: 20_000, preferredMemoryUsageAfterPurge: 12_000)
        let renderer = CachingRenderer(renderer: VariantRenderer(registry: registry), caches: .standard(memory: memory))
        for seed in 0..<30 {
            let bytes = try registry.encode(Pattern.photo(width: 60 + seed, height: 40), options: EncodeOptions(format: .png))
            _ = try renderer.render(.bytes(bytes, key: "memory:\(seed)"), targets: targets())
            #expect(memory.statistics.bytes <= 20_000)
        }
        #expect(memory.statistics.evictions > 0)
    }
}
