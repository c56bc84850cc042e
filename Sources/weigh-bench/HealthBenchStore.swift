import Foundation
import HealthSim
import WeighKit

/// The store of `bench-health.sh`'s commands at N samples (issue 15 item 5), shaped like a
/// real iPhone's Health: 1,000 body-mass readings, one a day from 2020-01-01 at 07:00,
/// written by a simulated scale and synced into the app's log (which holds their 1,000
/// entries), then `total` − 1,000 samples of the other types weigh models, spread evenly
/// over the same 1,000 days and written straight into `health.sqlite` through
/// `HealthSQLiteStorage.apply`, `batch` to a transaction, each with the small state whose
/// counter is the last position (so that `weigh check` finds the store whole).
///
/// Of each 100 of those: 45 step counts (an iPhone), 45 active energy (a watch), 8 exercise
/// minutes (the watch), 2 blood glucose (a sensor's app); one in 10,000 is a 30-minute run
/// instead. UUIDs come from a seeded generator: the same `total` makes the same store.
func makeHealthBenchStore(directory: String, total: Int, batch: Int = 50_000) throws {
  guard !FileManager.default.fileExists(atPath: directory) else {
    throw BenchFailure("\(directory) exists; give a new directory")
  }
  let weights = 1000
  guard total >= weights else { throw BenchFailure("give at least \(weights) samples") }
  let made = Date()
  var options = SessionOptions.golden
  options.keepGoing = false
  options.store = .directory(directory)
  let session = try Session(options: options, output: NullOutput())
  let script = """
    clock 2019-12-31T12:00Z
    simulate scale every 1d at 07:00 start 72kg noise 0.3kg
    advance \(weights)d
    simulate stop all
    sync
    expect entries == \(weights)
    expect health.samples == \(weights)
    """
  guard session.run(script: script, display: "health-store", directory: ".") else {
    session.close()
    throw BenchFailure("making the body-mass readings failed")
  }
  session.close()
  let weighed = Date().timeIntervalSince(made)

  let storage = try HealthSQLiteStorage(
    path: directory + "/" + HealthSQLiteStorage.fileName, creating: false)
  defer { try? storage.close() }
  try storage.setPageCache(mebibytes: 1024)
  guard var state = try storage.smallState() else { throw BenchFailure("no Health state") }
  var last = try storage.lastPosition()
  let bulk = total - weights
  var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: total))
  var written = 0
  while written < bulk {
    var changes: [HealthChange] = []
    changes.reserveCapacity(min(batch, bulk - written) + 1)
    while changes.count < batch, written < bulk {
      last += 1
      changes.append(
        .sampleSaved(
          benchSample(written, of: bulk, uuid: generator.nextUUID()), position: last))
      written += 1
    }
    state.counter = last
    changes.append(.stateChanged(state))
    try storage.apply(changes)
    if written % 1_000_000 < batch, bulk >= 1_000_000 {
      let elapsed = Date().timeIntervalSince(made)
      FileHandle.standardError.write(
        Data("  \(written) samples written, \(String(format: "%.0f", elapsed)) s\n".utf8))
    }
  }
  try storage.close()
  let elapsed = Date().timeIntervalSince(made)
  let bytes = directorySize(directory)
  print(
    String(
      format: "made %@: %d samples (%d body mass) in %.1f s (the readings %.1f s), %.1f MB on disk",
      directory, total, weights, elapsed, weighed, Double(bytes) / 1e6))
}

/// The first day of the bench store, 2020-01-01T00:00Z, and the days it spans.
private let benchEpoch = Date(timeIntervalSince1970: 1_577_836_800)
private let benchSpan: TimeInterval = 1000 * 86_400

private let phone = SourceRevision(
  source: HealthSource(name: "iPhone", bundleIdentifier: "com.apple.health.phone"),
  version: "17.1")
private let watch = SourceRevision(
  source: HealthSource(name: "Apple Watch", bundleIdentifier: "com.apple.health.watch"),
  version: "10.1")
private let sensor = SourceRevision(
  source: HealthSource(name: "Dexcom G7", bundleIdentifier: "com.dexcom.g7"), version: "2.3")
private let phoneDevice = HealthDevice(
  name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", softwareVersion: "17.1")
private let watchDevice = HealthDevice(
  name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", softwareVersion: "10.1")

/// Bulk sample `index` of `count`, starting `index / count` of the way through the span.
func benchSample(_ index: Int, of count: Int, uuid: UUID) -> HealthSample {
  let spacing = benchSpan / Double(max(count, 1))
  let start = benchEpoch.addingTimeInterval(Double(index) * spacing)
  let length = min(600, max(spacing, 1))
  let type: SampleType
  let value: Double
  let source: SourceRevision
  let device: HealthDevice?
  var workout: WorkoutDetails?
  switch index % 100 {
  case 0..<45:
    (type, value, source, device) = (.stepCount, Double(20 + index % 480), phone, phoneDevice)
  case 45..<90:
    (type, value, source, device) = (
      .activeEnergyBurned, 0.5 + Double(index % 40) / 10, watch, watchDevice
    )
  case 90..<98:
    (type, value, source, device) = (.appleExerciseTime, 1, watch, watchDevice)
  case 99 where index % 10_000 == 99:
    let details = WorkoutDetails(
      activityType: .running, duration: 1800, totalEnergyBurned: 310, totalDistance: 5200)
    (type, value, source, device) = (.workout, details.duration / 60, watch, watchDevice)
    workout = details
  default:
    (type, value, source, device) = (.bloodGlucose, 80 + Double(index % 60), sensor, nil)
  }
  let end =
    type == .workout
    ? start.addingTimeInterval(1800)
    : type.isInstantaneous ? start : start.addingTimeInterval(length)
  return HealthSample(
    uuid: uuid, type: type, startDate: start, endDate: end, value: value,
    sourceRevision: source, device: device, metadata: [:], creationDate: end, workout: workout)
}

/// The bytes of the files in `directory` (not its subdirectories').
func directorySize(_ directory: String) -> Int64 {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  return names.reduce(0) { total, name in
    let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
    return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
  }
}

/// Why a benchmark could not run.
struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
