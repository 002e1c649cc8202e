// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tick",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tick", targets: ["tick"]),
        .library(name: "TickKit", targets: ["TickKit"]),
        // Fuzz targets (`make fuzz`). A normal build makes replay tools:
        // `FuzzParser FILE...` runs saved inputs through the same checks.
        .executable(name: "FuzzParser", targets: ["FuzzParser"]),
        .executable(name: "FuzzQuery", targets: ["FuzzQuery"]),
        .executable(name: "FuzzEdit", targets: ["FuzzEdit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Debian's cmark-gfm 0.29, found through pkg-config `libcmark-gfm`.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .target(
            name: "TickKit",
            dependencies: ["CCmarkGFM", .product(name: "Yams", package: "Yams")]
        ),
        .executableTarget(
            name: "tick",
            dependencies: ["TickKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The invariants the fuzzers check, shared with the tests that replay
        // the inputs the fuzzers once crashed on.
        .target(name: "TickFuzzChecks", dependencies: ["TickKit", "CFuzzerDriver"]),
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "FuzzParser", dependencies: ["TickFuzzChecks"]),
        .executableTarget(name: "FuzzQuery", dependencies: ["TickFuzzChecks"]),
        .executableTarget(name: "FuzzEdit", dependencies: ["TickFuzzChecks"]),
        .testTarget(
            name: "TickKitTests",
            // `tick` too: the CLI tests run the built binary, and the renderer
            // tests import its module.
            dependencies: ["TickKit", "tick", "TickFuzzChecks", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Fixtures")]
        ),
    ]
)
