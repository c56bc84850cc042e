import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

/// One simulated phone with the app installed: its journal file in a fresh directory and
/// its anchor in a fresh UserDefaults suite, both removed at the end. `launch()` starts
/// the app as a new process would, reading the journal and anchor back.
final class AppHarness: @unchecked Sendable {
  let device = SimulatedDevice()
  let directory: URL
  let suiteName = "WeightSyncAsyncTests-\(UUID().uuidString)"
  let defaults: UserDefaults
  let bodyMass = HKQuantityType(.bodyMass)

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("WeightSyncAsyncTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defaults = try #require(UserDefaults(suiteName: suiteName))
    // The app's work runs in Tasks; give it time on a loaded test machine.
    device.completionGrace = 1
  }

  deinit {
    defaults.removePersistentDomain(forName: suiteName)
    try? FileManager.default.removeItem(at: directory)
  }

  var journalURL: URL { directory.appendingPathComponent("journal.json") }
  var anchor: AnchorDefaults { AnchorDefaults(defaults: defaults) }

  /// The app after a launch, with its journal and anchor as they were saved.
  func launch(backend: (any WeightBackend)? = nil) throws -> WeightHealthSync {
    WeightHealthSync(
      healthStore: HKHealthStore(device: device), journal: try WeightJournal(fileURL: journalURL),
      anchor: anchor, backend: backend)
  }

  /// The journal as saved on disk.
  func savedJournal() async throws -> [WeightEntry] {
    try await WeightJournal(fileURL: journalURL).entries
  }

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
}

/// HealthKit's error code of an error, if it is one.
func healthKitCode(_ error: any Error) -> HKError.Code? { (error as? HKError)?.code }

/// A server that answers after a short real delay, and remembers what it got.
actor RecordingBackend: WeightBackend {
  private(set) var uploaded: [WeightEntry] = []

  func upload(_ entries: [WeightEntry]) async throws {
    try await Task.sleep(nanoseconds: 5_000_000)
    uploaded += entries
  }
}

/// A server that does not answer until the test opens it: the upload hangs, and with it
/// the sync and the observer's completion.
actor StalledBackend: WeightBackend {
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private(set) var attempts = 0
  private var isOpen = false

  func upload(_ entries: [WeightEntry]) async throws {
    attempts += 1
    guard !isOpen else { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Answers every waiting upload, and every later one at once.
  func open() {
    isOpen = true
    for continuation in waiting { continuation.resume() }
    waiting = []
  }
}
