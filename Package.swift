// swift-tools-version: 6.1
// Darkroom — fetch, decode, transform, cache and serve images on Linux.
//
// Module map (see Docs/Architecture.md):
//   DarkroomCore     Image, protocols, probe, errors        (no C, no I/O)
//   DarkroomGD       libgd codecs                           (CGD)
//   DarkroomJPEG     libjpeg-turbo shrink-on-load decoder   (CJPEG)
//   DarkroomPNG      libpng codec, full 8/16-bit alpha      (CPNG)
//   DarkroomWebP     libwebp codec, full 8-bit alpha        (CWebP)
//   DarkroomBMP      BMP decoder, full 8-bit alpha          (pure Swift)
//   DarkroomTGA      TGA decoder, every type and origin     (pure Swift)
//   DarkroomTIFF     libtiff codec, every page and layout    (CTIFF: libtiff, dlopen)
//   DarkroomFilters  standard filters and resampler         (pure Swift)
//   DarkroomCache    memory and disk caches                (swift-crypto)
//   DarkroomMemcached  the memcached cache kind            (CMemcached: libmemcached, dlopen)
//   DarkroomConfig   filters.d/*.toml → validated variants  (TOMLKit)
//   DarkroomSources  file and memory sources, file I/O
//   DarkroomCurl     HTTP source on libcurl's multi interface (CCurlShims)
//   Darkroom         registry, render plan, inline and staged executors, default wiring
//   DarkroomTools    what the tools share: batch jobs, conversion, spread threads, config discovery
//   DarkroomCLI      the command-line tool as a library      (swift-argument-parser)
//   darkroom         the tool: DarkroomCLI + the standard and example filters
//   DarkroomServer   the HTTP image server as a library      (Hummingbird, swift-argument-parser)
//   darkroom-server  the server: DarkroomServer + the standard and example filters
import PackageDescription

let package = Package(
    name: "Darkroom",
    products: [
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
        .library(name: "DarkroomGD", targets: ["DarkroomGD"]),
        .library(name: "DarkroomJPEG", targets: ["DarkroomJPEG"]),
        .library(name: "DarkroomPNG", targets: ["DarkroomPNG"]),
        .library(name: "DarkroomWebP", targets: ["DarkroomWebP"]),
        .library(name: "DarkroomBMP", targets: ["DarkroomBMP"]),
        .library(name: "DarkroomTGA", targets: ["DarkroomTGA"]),
        .library(name: "DarkroomTIFF", targets: ["DarkroomTIFF"]),
        .library(name: "DarkroomFilters", targets: ["DarkroomFilters"]),
        .library(name: "DarkroomSources", targets: ["DarkroomSources"]),
        .library(name: "DarkroomCurl", targets: ["DarkroomCurl"]),
        .library(name: "DarkroomConfig", targets: ["DarkroomConfig"]),
        .library(name: "DarkroomCache", targets: ["DarkroomCache"]),
        .library(name: "Darkroom", targets: ["Darkroom"]),
        .library(name: "DarkroomTools", targets: ["DarkroomTools"]),
        .library(name: "DarkroomMemcached", targets: ["DarkroomMemcached"]),
        .library(name: "DarkroomWorkers", targets: ["DarkroomWorkers"]),
        .library(name: "DarkroomExampleFilters", targets: ["DarkroomExampleFilters"]),
        .library(name: "DarkroomCLI", targets: ["DarkroomCLI"]),
        .executable(name: "darkroom", targets: ["darkroom"]),
        .library(name: "DarkroomServer", targets: ["DarkroomServer"]),
        .executable(name: "darkroom-server", targets: ["darkroom-server"]),
        .plugin(name: "DarkroomConfigCheck", targets: ["DarkroomConfigCheck"]),
        .plugin(name: "DarkroomCheckCommand", targets: ["DarkroomCheckCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The HTTP image server only (DarkroomServer); no trait: neither swift-configuration
        // nor full Foundation comes with it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // NIOHTTPTypes only: the request parts a server channel handler sees (Hummingbird's own).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation` (scripts/docs): the DocC catalogs in Sources/*/*.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: - C walls
        // libgd (libgd-dev) is loaded with dlopen on first use, not linked: see Sources/CGD/include/CGD.h.
        .target(
            name: "CGD",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CGD",
            linkerSettings: [.linkedLibrary("z")]
        ),
        // libmemcached (libmemcached-dev) is loaded with dlopen on first use, not linked: a
        // program that configures no memcached layer runs without it.
        .target(name: "CMemcached", dependencies: ["CLibraryLoader"], path: "Sources/CMemcached"),
        // dlopen on first use, with the reason when a library cannot be loaded (CGD, CCurlShims, CMemcached, CTIFF).
        .target(name: "CLibraryLoader", path: "Sources/CLibraryLoader"),
        .target(
            name: "CJPEG",
            path: "Sources/CJPEG",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .target(
            name: "CPNG",
            path: "Sources/CPNG",
            // libdeflate (libdeflate-dev) inflates the image data of plain PNGs read shrunk.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate")]
        ),
        // libtiff (libtiff-dev) is loaded with dlopen on first use, not linked: a process that reads
        // no TIFF never maps it and the libraries behind it (see Sources/CTIFF/ctiff_library.h).
        .target(name: "CTIFF", dependencies: ["CLibraryLoader"], path: "Sources/CTIFF"),
        .systemLibrary(
            name: "CWebP",
            path: "Sources/CWebP",
            providers: [.apt(["libwebp-dev"])]
        ),
        // libcurl's variadic setopt/getinfo wrapped in typed C functions Swift can call; libcurl
        // (libcurl4-openssl-dev) is loaded with dlopen on first use, not linked.
        .target(
            name: "CCurlShims",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CCurlShims"
        ),
        // glibc's CPU-affinity calls (need _GNU_SOURCE and macros) for SpreadThreads.
        .target(name: "CThreadPlacement", path: "Sources/CThreadPlacement"),

        // MARK: - Core
        .target(name: "DarkroomCore"),

        // MARK: - Codecs
        .target(name: "DarkroomGD", dependencies: ["DarkroomCore", "CGD"]),
        .target(name: "DarkroomJPEG", dependencies: ["DarkroomCore", "CJPEG"]),
        .target(name: "DarkroomPNG", dependencies: ["DarkroomCore", "CPNG"]),
        .target(name: "DarkroomWebP", dependencies: ["DarkroomCore", "CWebP"]),
        .target(name: "DarkroomBMP", dependencies: ["DarkroomCore"]),
        .target(name: "DarkroomTGA", dependencies: ["DarkroomCore"]),
        .target(name: "DarkroomTIFF", dependencies: ["DarkroomCore", "CTIFF"]),

        // MARK: - Sources
        .target(name: "DarkroomSources", dependencies: ["DarkroomCore"]),
        .target(
            name: "DarkroomCurl",
            dependencies: [
                "DarkroomCore", "CCurlShims", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: - Filters
        .target(name: "DarkroomFilters", dependencies: ["DarkroomCore"]),

        // MARK: - Caches
        .target(
            name: "DarkroomCache",
            dependencies: ["DarkroomCore", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // MARK: - Configuration
        .target(
            name: "DarkroomConfig",
            dependencies: ["DarkroomCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),

        // MARK: - Wiring and tools
        .target(
            name: "Darkroom",
            dependencies: [
                "DarkroomCore", "DarkroomGD", "DarkroomJPEG", "DarkroomPNG", "DarkroomWebP", "DarkroomBMP", "DarkroomTGA", "DarkroomTIFF",
                "DarkroomFilters", "DarkroomConfig", "DarkroomSources", "DarkroomCache", "DarkroomCurl",
                "CThreadPlacement",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What the two tools share outside the engine: batch jobs and their schedule, file
        // conversion, CPU-spread threads, config discovery and the embedded default config.
        .target(
            name: "DarkroomTools",
            dependencies: ["Darkroom", "DarkroomCore", "DarkroomConfig", "DarkroomFilters", "DarkroomSources", "CThreadPlacement"]
        ),
        .target(name: "DarkroomExampleFilters", dependencies: ["Darkroom", "DarkroomCore"]),
        // Decoding in worker processes, so a decoder crash ends one decode, not the process.
        .target(
            name: "DarkroomWorkers",
            dependencies: ["Darkroom", "DarkroomCore", .product(name: "CoreMetrics", package: "swift-metrics")]
        ),
        // The memcached cache kind: a layer shared by every server of a cluster.
        .target(
            name: "DarkroomMemcached",
            dependencies: ["Darkroom", "CMemcached", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The tool's commands; an executable hands them its registry (see DarkroomTool).
        .target(
            name: "DarkroomCLI",
            dependencies: [
                "Darkroom", "DarkroomTools", "DarkroomConfig", "DarkroomCore", "DarkroomFilters",
                "DarkroomSources", "DarkroomCache", "DarkroomCurl", "DarkroomWorkers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "darkroom", dependencies: ["DarkroomCLI", "Darkroom", "DarkroomExampleFilters", "DarkroomMemcached"]),
        // The HTTP image server, kept out of `darkroom` so that the tool neither builds nor
        // starts SwiftNIO (see Docs/Architecture.md, "The image server").
        .target(
            name: "DarkroomServer",
            dependencies: [
                "Darkroom", "DarkroomTools", "DarkroomConfig", "DarkroomCore", "DarkroomCurl", "DarkroomSources",
                "DarkroomWorkers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "darkroom-server",
            dependencies: ["DarkroomServer", "Darkroom", "DarkroomExampleFilters", "DarkroomMemcached"]),

        // Micro-benchmark of ImagePipeline (Benchmarks/pipeline/run.sh builds it in release mode).
        .executableTarget(
            name: "PipelineBenchmark",
            dependencies: ["Darkroom", "DarkroomCore", "DarkroomSources"],
            path: "Benchmarks/pipeline",
            exclude: ["run.sh", "README.md"]
        ),
        // Micro-benchmark of DiskCache against plain system calls (Benchmarks/disk-cache/run.sh).
        .executableTarget(
            name: "DiskCacheBenchmark",
            dependencies: ["DarkroomCache", "DarkroomCore"],
            path: "Benchmarks/disk-cache",
            exclude: ["run.sh", "README.md"]
        ),

        // MARK: - Plugins (thin shells over the darkroom tool)
        .plugin(
            name: "DarkroomConfigCheck",
            capability: .buildTool(),
            dependencies: ["darkroom"]
        ),
        .plugin(
            name: "DarkroomCheckCommand",
            capability: .command(
                intent: .custom(verb: "darkroom-check", description: "Validate filters.d/ with darkroom check"),
                permissions: []
            ),
            dependencies: ["darkroom"]
        ),

        // MARK: - Tests
        .target(
            name: "DarkroomTestSupport",
            dependencies: ["DarkroomCore"],
            path: "Tests/DarkroomTestSupport"
        ),
        .testTarget(name: "DarkroomCoreTests", dependencies: ["DarkroomCore", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomGDTests", dependencies: ["DarkroomGD", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomJPEGTests", dependencies: ["DarkroomJPEG", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomPNGTests", dependencies: ["DarkroomPNG", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomWebPTests", dependencies: ["DarkroomWebP", "DarkroomTestSupport"]),
        // Fixtures/ holds small BMPs written by ImageMagick and Pillow (see Fixtures/make_fixtures.sh);
        // Darkroom is for the test that the standard registry picks BMPDecoder.
        .testTarget(
            name: "DarkroomBMPTests",
            dependencies: ["DarkroomBMP", "DarkroomCore", "DarkroomTestSupport", "Darkroom"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "DarkroomTGATests", dependencies: ["DarkroomTGA", "DarkroomCore", "DarkroomTestSupport", "Darkroom"]),
        .testTarget(name: "DarkroomWorkersTests", dependencies: ["DarkroomWorkers", "Darkroom", "DarkroomCore", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomTIFFTests", dependencies: ["DarkroomTIFF", "DarkroomCore", "DarkroomTestSupport", "Darkroom"]),
        .testTarget(name: "DarkroomFiltersTests", dependencies: ["DarkroomFilters", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomSourcesTests", dependencies: ["DarkroomSources", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomCurlTests", dependencies: ["DarkroomCurl", "DarkroomTestSupport"]),
        .testTarget(
            name: "DarkroomCacheTests",
            dependencies: ["DarkroomCache", "DarkroomTestSupport", "DiskCacheWorker", "DiskCacheWorkload"]
        ),
        // A child process for the disk cache's kill -9 and multi-process tests.
        .executableTarget(
            name: "DiskCacheWorker",
            dependencies: ["DarkroomCache", "DiskCacheWorkload"],
            path: "Tests/DiskCacheWorker"
        ),
        // A tool of a third party's own: DarkroomCLI with a filter the darkroom tool does not know.
        .executableTarget(
            name: "CustomFilterTool",
            dependencies: ["DarkroomCLI", "Darkroom", "DarkroomCore"],
            path: "Tests/CustomFilterTool"
        ),
        // The key → payload formulas the worker and the tests share.
        .target(name: "DiskCacheWorkload", dependencies: ["DarkroomCache"], path: "Tests/DiskCacheWorkload"),
        .testTarget(name: "DarkroomConfigTests", dependencies: ["DarkroomConfig", "DarkroomTestSupport"]),
        .testTarget(
            name: "DarkroomTests",
            dependencies: [
                "Darkroom", "DarkroomTools", "DarkroomExampleFilters", "DarkroomSources", "DarkroomTestSupport", "DarkroomCurl",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "DarkroomExampleFiltersTests",
            dependencies: ["DarkroomExampleFilters", "Darkroom", "DarkroomTestSupport"]
        ),
        .testTarget(name: "DarkroomPluginTests", dependencies: ["DarkroomTestSupport"]),
        // A user's cache kind and source kind, written against `import Darkroom` alone.
        .testTarget(name: "DarkroomMemcachedTests", dependencies: ["DarkroomMemcached", "Darkroom", "DarkroomTestSupport"]),
        .testTarget(
            name: "DarkroomServerTests",
            dependencies: [
                "darkroom-server", "DarkroomServer", "Darkroom", "DarkroomCore", "DarkroomConfig", "DarkroomCache",
                "DarkroomTestSupport", .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DarkroomCLITests",
            dependencies: [
                "darkroom", "DarkroomCLI", "Darkroom", "DarkroomTools", "DarkroomSources", "DarkroomTestSupport",
                "CustomFilterTool",
            ]
        ),
    ]
)

// MARK: - Explicit imports

// A module sees only the members of the modules it imports itself (SE-0444). Without this a
// `range(of:)` or `localizedDescription` from swift-corelibs-foundation, visible through some
// dependency's `import Foundation`, would silently link that library, ICU and ~3,700 protocol
// conformances into `darkroom` (a slower start; see Docs/Architecture.md).
for target in package.targets where [.regular, .executable].contains(target.type) && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
