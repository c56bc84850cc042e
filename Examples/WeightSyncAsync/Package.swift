// swift-tools-version: 6.1
import PackageDescription

// A weight tracker's HealthKit layer written with async/await, and tests that drive it on a
// simulated device. The package builds where Apple's HealthKit is missing (Linux), against
// the `HealthKit` product of the root package, which is declared only there. The library's
// files are app code: in an iOS app they compile unchanged against Apple's framework.
let package = Package(
  name: "WeightSyncAsync",
  products: [
    .library(name: "WeightSyncAsync", targets: ["WeightSyncAsync"])
  ],
  dependencies: [
    .package(name: "weigh", path: "../..")
  ],
  targets: [
    .target(
      name: "WeightSyncAsync",
      dependencies: [.product(name: "HealthKit", package: "weigh")]
    ),
    .testTarget(
      name: "WeightSyncAsyncTests",
      dependencies: ["WeightSyncAsync", .product(name: "HealthKit", package: "weigh")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
