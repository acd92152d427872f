// swift-tools-version: 6.1
// The framework's ceiling for Benchmarks/server.sh: a bare Hummingbird server that answers every
// GET with the same 8 KiB body, on the Hummingbird darkroom-server is built on. darkroom-server's
// memory-cache hits are reported as a fraction of its requests/s (issue 28, item 3).
//
//   swift build -c release --package-path Benchmarks/server/ceiling --scratch-path .build-server-bench/ceiling
import PackageDescription

let package = Package(
    name: "HummingbirdCeiling",
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: [])],
    targets: [
        .executableTarget(
            name: "hummingbird-ceiling", dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ]
)
