// swift-tools-version:6.1
import PackageDescription

// A client of the Networking library as a user writes one: it depends on the root package by
// path and on its `Networking` product alone, so building it proves that the library builds
// without anything of the explorer app.
let package = Package(
    name: "PiuPiuStyleClient",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "explorer", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PiuPiuStyleClient",
            dependencies: [.product(name: "Networking", package: "explorer")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
