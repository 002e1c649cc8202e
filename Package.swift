// swift-tools-version:6.0
import PackageDescription

/// The library's layers. The command line, the fuzz checks and the tests
/// import the layers they use directly rather than through the `TickKit`
/// facade: Swift 6.3's incremental builds miss a layout change in a module
/// reached through a re-export (swiftlang/swift#89636), and the stale code
/// then crashes.
let layers: [Target.Dependency] = [
    "TickSystem", "TickModel", "TickSyntax", "TickRecords", "TickStore", "TickEngine", "TickOutput", "TickEdit",
]

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
        // The library's layers, lowest first; each may import only those
        // above it in this list that its dependencies reach (docs/ARCHITECTURE.md,
        // "Layers"): TickEngine and TickOutput do not reach TickStore.
        // The few Core Foundation functions TickSystem calls (CollatedTexts), declared
        // without Core Foundation's own headers (see the header).
        .systemLibrary(name: "CCoreFoundation"),
        // The processor's prefetch hint (a header only: Swift cannot write it).
        .systemLibrary(name: "CPrefetch"),
        // What TickSystem needs of the C library that Swift cannot call: GNU calls Swift's
        // Glibc module does not declare (renameat2, extended attributes), the heap in 2 MB
        // pages (a flag per thread; mallopt, sbrk), a thread started on another core
        // (cpu_set_t), and the spin-wait hint.
        .target(name: "CSystemCalls"),
        // Every system call: POSIX files, folders, mappings, time, processes; text order in a locale.
        .target(name: "TickSystem", dependencies: ["CCoreFoundation", "CPrefetch", "CSystemCalls"]),
        // Values: documents, items, dates, statuses, runs, bytes out.
        .target(name: "TickModel", dependencies: ["TickSystem"]),
        // Markdown to items: the cmark-gfm seam, inline tokens, front matter, settings.
        .target(name: "TickSyntax", dependencies: ["TickModel", "CCmarkGFM", .product(name: "Yams", package: "Yams")]),
        // The read model, with no I/O: lists as the parse cache encodes them, read in
        // place (EncodedDocument), and a folder's lists held and read in parallel runs
        // (EncodedWorkspace). The store hands it the cache's mapping and its repairs
        // through protocols (ListMapping, ListRepairing).
        .target(name: "TickRecords", dependencies: ["TickSyntax"]),
        // The notes folder on disk: scans, the parse cache file, locks, atomic writes, the journal.
        .target(name: "TickStore", dependencies: ["TickRecords"]),
        // Queries, smart groups, sorting, grouping, lookups: answers from the read model, no I/O.
        .target(name: "TickEngine", dependencies: ["TickRecords"]),
        // JSON, CSV and iCalendar.
        .target(name: "TickOutput", dependencies: ["TickEngine"]),
        // Byte splices on one list file, and the three-way merge of a list (which runs
        // git and reads its output through the store's FileIO).
        .target(name: "TickEdit", dependencies: ["TickEngine", "TickStore"]),
        // The facade: `import TickKit` brings every layer.
        .target(name: "TickKit", dependencies: ["TickOutput", "TickEdit", "TickStore"]),
        .executableTarget(
            name: "tick",
            dependencies: layers + [.product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The invariants the fuzzers check, shared with the tests that replay
        // the inputs the fuzzers once crashed on.
        .target(name: "TickFuzzChecks", dependencies: layers + ["CFuzzerDriver"]),
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "FuzzParser", dependencies: ["TickFuzzChecks"]),
        .executableTarget(name: "FuzzQuery", dependencies: ["TickFuzzChecks"]),
        .executableTarget(name: "FuzzEdit", dependencies: ["TickFuzzChecks"]),
        .testTarget(
            name: "TickKitTests",
            // `tick` too: the CLI tests run the built binary, and the renderer
            // tests import its module.
            dependencies: layers + ["TickKit", "tick", "TickFuzzChecks", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Fixtures")]
        ),
    ]
)
