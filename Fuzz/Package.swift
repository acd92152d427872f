// swift-tools-version: 6.1
// Coverage-guided fuzz targets (libFuzzer, with AddressSanitizer) for the parts of Darkroom that
// read untrusted bytes: the header probe and metadata readers, every decoder family through the
// registry, the filters.d loader, the identifier parser and the server's request path. See README.md; scripts/fuzz builds
// and runs them (CI runs each briefly on its committed corpus).
//
//   swift build --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
import PackageDescription

let support: [Target.Dependency] = ["FuzzSupport"]

/// One executable per target; each hands one FuzzSupport function to libFuzzer's driver.
let targets = [
    "fuzz-probe", "fuzz-decode-jpeg", "fuzz-decode-png", "fuzz-decode-webp", "fuzz-decode-gif", "fuzz-decode-bmp-tga",
    "fuzz-decode-avif-heif", "fuzz-decode-tiff", "fuzz-config", "fuzz-identifier",
]

let package = Package(
    name: "DarkroomFuzz",
    dependencies: [.package(name: "Darkroom", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", .product(name: "Darkroom", package: "Darkroom")]),
        .target(name: "CFuzzerDriver"),
    ] + targets.map { .executableTarget(name: $0, dependencies: support) } + [
        // The server's path, in process: the only target that links the HTTP stack.
        .executableTarget(
            name: "fuzz-server-path",
            dependencies: support + [
                .product(name: "DarkroomServer", package: "Darkroom"), .product(name: "DarkroomTools", package: "Darkroom"),
            ]),
    ]
)
