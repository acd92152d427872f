// swift-tools-version: 6.1
// A package that extends Darkroom as a user's would: it depends on Darkroom by path, imports
// only `Darkroom`, and adds a cache kind (`folder`) and a source kind (`samples`) that its
// tests select from a filters.d/ and render through ImagePipeline. `.ci/run` builds and tests
// it: swift test --package-path Tests/ExamplePackage
import PackageDescription

let package = Package(
    name: "DarkroomExampleKinds",
    dependencies: [.package(name: "Darkroom", path: "../..")],
    targets: [
        .target(name: "ExampleKinds", dependencies: [.product(name: "Darkroom", package: "Darkroom")]),
        .testTarget(name: "ExampleKindsTests", dependencies: ["ExampleKinds", .product(name: "Darkroom", package: "Darkroom")]),
    ]
)
