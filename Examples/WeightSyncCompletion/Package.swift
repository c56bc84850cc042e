// swift-tools-version: 6.1
import PackageDescription

// A weight tracker's HealthKit layer written with completion handlers, and tests that drive it on a
// simulated device. The package builds where Apple's HealthKit is missing (Linux), against
// the `HealthKit` product of the root package, which is declared only there. The library's
// files are app code: in an iOS app they compile unchanged against Apple's framework.
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
