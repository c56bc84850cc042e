// swift-tools-version: 6.1
import PackageDescription

// A weight tracker's HealthKit layer written with completion handlers, and tests that drive
// it on a simulated device. The library target is app code: on iOS it compiles against
// Apple's HealthKit; here it uses the `HealthKit` product of the weigh package (Linux).
let package = Package(
  name: "WeightSyncCompletion",
  products: [
    .library(name: "WeightSyncCompletion", targets: ["WeightSyncCompletion"])
  ],
  dependencies: [
    .package(name: "weigh", path: "../..")
  ],
  targets: [
    .target(
      name: "WeightSyncCompletion",
      dependencies: [.product(name: "HealthKit", package: "weigh")]
    ),
    .testTarget(
      name: "WeightSyncCompletionTests",
      dependencies: ["WeightSyncCompletion", .product(name: "HealthKit", package: "weigh")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
