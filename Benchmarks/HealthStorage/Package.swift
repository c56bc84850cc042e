// swift-tools-version: 6.1
import PackageDescription

// SwiftPM names a path dependency after its folder (the checkout's name, which varies).
let weigh = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "weigh")

// Issue 15 item 4: candidate stores for HealthSim's samples, measured side by side
// (scripts/bench-storage.sh, docs/performance.md "Health storage candidates"). A package of
// its own, so that the main package and CI do not build the candidates.
let package = Package(
  name: "health-storage-bench",
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .executableTarget(
      name: "health-storage-bench",
      dependencies: [
        .product(name: "WeighKit", package: weigh),
        .product(name: "HealthSim", package: weigh),
        .product(name: "GRDB", package: "GRDB.swift"),
        "CSQLiteOptions",
      ]
    ),
    // One call to SQLite's C API that Swift cannot make (a variadic function).
    .target(name: "CSQLiteOptions", linkerSettings: [.linkedLibrary("sqlite3")]),
  ],
  swiftLanguageModes: [.v6]
)
