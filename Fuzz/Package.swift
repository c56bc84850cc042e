// swift-tools-version: 6.1
import PackageDescription

// SwiftPM names a path dependency after its folder (the checkout's name, which varies).
let weigh = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "weigh")

// libFuzzer targets for weigh, in a package of their own: they are built only with
// `-sanitize=fuzzer,address` (scripts/fuzz.sh), which the main package's builds never use.
let package = Package(
  name: "weigh-fuzz",
  dependencies: [
    .package(path: "..")
  ],
  targets: [
    // One executable for every target; WEIGH_FUZZ_TARGET names the one to run.
    .executableTarget(
      name: "weigh-fuzz",
      dependencies: [.product(name: "WeighKit", package: weigh)]
    )
  ],
  swiftLanguageModes: [.v6]
)
