// swift-tools-version: 6.1
// The README's library snippets as programs that compile: each depends on Darkroom by path and
// imports `Darkroom` alone. `scripts/test` (and so CI) builds them, runs their tests, and runs
// each program on the sample images.
//
//   swift run --package-path Examples thumbnail Samples/rocket.jpg rocket-thumbnail.jpg
//   swift run --package-path Examples render-variant Examples/filters.d Samples rocket.jpg card card.png
//   swift run --package-path Examples poster Samples/chelsea.png chelsea-poster.png 4
//   swift run --package-path Examples render-data-url Examples/data-url.d out.png
import PackageDescription

let darkroom = Target.Dependency.product(name: "Darkroom", package: "Darkroom")

let package = Package(
    name: "DarkroomExamples",
    dependencies: [.package(name: "Darkroom", path: "..")],
    targets: [
        // A thumbnail in five lines: decode, resize, encode.
        .executableTarget(name: "thumbnail", dependencies: [darkroom]),
        // A variant of filters.d rendered through ImagePipeline.
        .executableTarget(name: "render-variant", dependencies: [darkroom]),
        // A filter module of your own, and a program that registers and uses it.
        .target(name: "Posterize", dependencies: [darkroom]),
        .executableTarget(name: "poster", dependencies: ["Posterize", darkroom]),
        // A source kind of your own (data: URLs), selected in filters.d.
        .target(name: "DataURLSource", dependencies: [darkroom]),
        .executableTarget(name: "render-data-url", dependencies: ["DataURLSource", darkroom]),
        .testTarget(name: "ExamplesTests", dependencies: ["Posterize", "DataURLSource", darkroom]),
    ]
)
