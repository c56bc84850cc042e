// swift-tools-version: 6.1
import PackageDescription

// A weight tracker's HealthKit layer written with async/await, and tests that drive it on a
// simulated device. The library target is app code: on iOS it compiles against Apple's
// HealthKit; here it uses the `HealthKit` product of the weigh package (Linux).
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
