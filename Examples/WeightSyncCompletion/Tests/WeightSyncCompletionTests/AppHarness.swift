import Foundation
import HealthKit
import Testing

@testable import WeightSyncCompletion

/// One simulated phone with the app installed: its files in a fresh directory, removed at
/// the end. `launch()` starts the app as a new process would: the log and the anchor are
/// read back from those files and the app gets a new store.
final class AppHarness: @unchecked Sendable {
  let device = SimulatedDevice()
  let directory: URL
  let bodyMass = HKQuantityType(.bodyMass)

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("WeightSyncCompletionTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // The app's work runs on a dispatch queue; give it time on a loaded test machine.
    device.completionGrace = 1
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var logURL: URL { directory.appendingPathComponent("weights.json") }
  var anchorURL: URL { directory.appendingPathComponent("body-mass.anchor") }

  /// The app after a launch, with its log and anchor as they were saved.
  func launch(backend: (any WeightBackend)? = nil) throws -> WeightHealthSync {
    WeightHealthSync(
      healthStore: HKHealthStore(device: device), log: try WeightLog(fileURL: logURL),
      anchors: AnchorStore(fileURL: anchorURL), backend: backend)
  }

  /// The log as saved on disk.
  func savedLog() throws -> [WeightEntry] { try WeightLog(fileURL: logURL).entries }

  /// A scale's app saves weights, one a day from now.
  @discardableResult
  func scaleSaves(_ kilograms: [Double]) throws -> [HKQuantitySample] {
    let start = device.now
    let samples = kilograms.enumerated().map { day, kilograms in
      let date = start.addingTimeInterval(Double(day) * 86_400)
      return HKQuantitySample(
        type: bodyMass, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms),
        start: date, end: date)
    }
    try device.saveAsOtherApp(samples, name: "Scale", bundleIdentifier: "com.example.scale")
    return samples
  }

  /// Everything Health keeps for body mass, as an anchored query from no anchor sees it.
  func allChanges(_ store: HKHealthStore) async throws -> ([HKSample], [HKDeletedObject]) {
    try await withCheckedThrowingContinuation { continuation in
      let query = HKAnchoredObjectQuery(
        type: bodyMass, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
      ) { _, samples, deleted, _, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: (samples ?? [], deleted ?? []))
        }
      }
      store.execute(query)
    }
  }
}

/// The app's completion-handler API, awaited in tests.
extension WeightHealthSync {
  func authorize() async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      requestAuthorization { error in
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
      }
    }
  }

  func start() async throws -> ImportSummary {
    try await withCheckedThrowingContinuation { continuation in
      start { continuation.resume(with: $0) }
    }
  }

  func importChanges() async throws -> ImportSummary {
    try await withCheckedThrowingContinuation { continuation in
      importChanges { continuation.resume(with: $0) }
    }
  }

  func exportManualEntries() async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      exportManualEntries { continuation.resume(with: $0) }
    }
  }

  func recentWeights(limit: Int) async throws -> [HKQuantitySample] {
    try await withCheckedThrowingContinuation { continuation in
      recentWeights(limit: limit) { continuation.resume(with: $0) }
    }
  }
}

/// HealthKit's error code of an error, if it is one.
func healthKitCode(_ error: any Error) -> HKError.Code? { (error as? HKError)?.code }
