// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "weigh",
  products: [
    .executable(name: "weigh", targets: ["weigh"]),
    .library(name: "HealthSim", targets: ["HealthSim"]),
    .library(name: "WeighKit", targets: ["WeighKit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // SQLite for HealthSim's samples (issue 15; docs/store.md "Health storage: decision"),
    // over Debian's libsqlite3-dev.
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    // `swift package generate-documentation`: DocC for the HealthKit and HealthSim modules.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The simulated HealthKit. Knows nothing of the command language.
    .target(name: "HealthSim"),
    // The app, its language, store, analysis, import and export. No terminal code.
    .target(
      name: "WeighKit",
      dependencies: [
        "HealthSim",
        "CWeighZlib",
        "CWeighSQLite",
        "CWeighCRC32",
        "CWeighXMLScan",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // zlib from Debian's zlib1g-dev, to inflate export.zip entries with a bounded read
    // (ZIPFoundation's own inflate loop can spin for ever on damaged data).
    .systemLibrary(name: "CWeighZlib", providers: [.apt(["zlib1g-dev"])]),
    // The zip CRC-32 by carry-less multiplication (x86-64), which Swift cannot reach: the
    // store checksums every row it writes (Sources/WeighKit/Import/ZipCRC32.swift).
    .target(name: "CWeighCRC32"),
    // An export's plain start tags read with SSE2's byte compares, which Swift cannot reach
    // (Sources/WeighKit/Import/AppleHealthExportParser.swift, `startTag`).
    .target(name: "CWeighXMLScan"),
    // Debian's libsqlite3-dev (GRDB's SQLite): sqlite3_config, which Swift cannot call.
    .systemLibrary(name: "CWeighSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // GNU readline from Debian's libreadline-dev. No pkgConfig: readline.pc pulls in
    // tinfo's -D flags, which SwiftPM rejects as prohibited.
    .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
    // The only code that touches readline.
    .target(name: "LineEditing", dependencies: ["CReadline"]),
    .executableTarget(
      name: "weigh",
      dependencies: [
        "WeighKit",
        "LineEditing",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Benchmarks that time one command inside a process (scripts/bench-sync.sh).
    // Also the child process of HealthSQLiteCrashTests (`health-sqlite-append`).
    .executableTarget(name: "weigh-bench", dependencies: ["WeighKit", "HealthSim"]),
    .testTarget(
      name: "HealthSimTests",
      dependencies: [
        "HealthSim",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "WeighKitTests",
      dependencies: [
        "WeighKit",
        // HealthSQLiteCrashTests runs it as the process it kills.
        "weigh-bench",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "EndToEndTests", dependencies: ["weigh"]),
  ],
  swiftLanguageModes: [.v6]
)

// Apple's HealthKit API over the simulator, for app code that imports HealthKit on platforms
// that have no HealthKit (Linux). On Apple platforms the real framework is used instead, so
// the target is not declared there.
#if !canImport(Darwin)
  package.products.append(.library(name: "HealthKit", targets: ["HealthKit"]))
  package.targets.append(.target(name: "HealthKit", dependencies: ["HealthSim"]))
  package.targets.append(.testTarget(name: "HealthKitTests", dependencies: ["HealthKit"]))
#endif
