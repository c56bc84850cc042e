import Foundation
import HealthSim
import WeighKit

/// The store of `bench-health.sh`'s commands (issue 15 items 2 and 5), shaped like a real
/// iPhone's Health at a constant density: a day holds the same samples whatever the history's
/// length, and a bigger store holds more days, not denser ones.
///
/// 1,000 body-mass readings, one a day at 07:00 up to 2022-09-30,
/// written by a simulated scale and synced into the app's log (which holds their 1,000
/// entries); then `others` samples of the other types weigh models, `benchDensity` a day,
/// ending at 2022-10-01T00:00Z (`benchEnd`, the bench's clock) and reaching back as many
/// days as `others` needs, written straight into `health.sqlite` through
/// `HealthSQLiteStorage.apply`, `batch` to a transaction, each with the small state whose
/// counter is the last position (so that `weigh check` finds the store whole).
///
/// A sample's time and type depend only on its place counted back from the end, so the
/// last days are the same at every size: the smallest store (1,000 others) holds one full
/// day, 2022-09-30, which every bigger store holds too. UUIDs come from a seeded
/// generator: the same `others` makes the same store.
func makeHealthBenchStore(directory: String, others: Int, batch: Int = 50_000) throws {
  guard !FileManager.default.fileExists(atPath: directory) else {
    throw BenchFailure("\(directory) exists; give a new directory")
  }
  let weights = 1000
  guard others >= 0 else { throw BenchFailure("give a count of samples, 0 or more") }
  let made = Date()
  var options = SessionOptions.golden
  options.keepGoing = false
  options.store = .directory(directory)
  let session = try Session(options: options, output: NullOutput())
  // The scale's first reading is the day after the clock's, at 07:00; the last one is
  // 2022-09-30T07:00Z, the bench's measured day.
  let script = """
    clock 2020-01-04T12:00Z
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
  var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: others))
  var written = 0
  while written < others {
    var changes: [HealthChange] = []
    changes.reserveCapacity(min(batch, others - written) + 1)
    while changes.count < batch, written < others {
      last += 1
      // Oldest first: the newest sample is place 0 counted back from the end.
      let sample = benchSample(back: others - 1 - written, uuid: generator.nextUUID())
      changes.append(.sampleSaved(sample, position: last))
      written += 1
    }
    state.counter = last
    changes.append(.stateChanged(state))
    try storage.apply(changes)
    if written % 1_000_000 < batch, others >= 1_000_000 {
      let elapsed = Date().timeIntervalSince(made)
      FileHandle.standardError.write(
        Data("  \(written) samples written, \(String(format: "%.0f", elapsed)) s\n".utf8))
    }
  }
  try storage.close()
  let elapsed = Date().timeIntervalSince(made)
  let bytes = directorySize(directory)
  let days = (others + benchDensity - 1) / benchDensity
  print(
    String(
      format:
        "made %@: %d samples (%d body mass, %d others over %d days) in %.1f s (the readings %.1f s), %.1f MB on disk",
      directory, weights + others, weights, others, days, elapsed, weighed, Double(bytes) / 1e6))
}

/// The end of the bench store's other samples, 2022-10-01T00:00Z (the clock of
/// `bench-health.sh`'s commands), and how many of them a day holds.
///
/// 1,000 a day, the same at every size: an iPhone owner with an Apple Watch writes steps
/// and active energy every few minutes. Here 400 step counts (one each 3.6 minutes, about
/// 8,000 steps), 500 active energy samples (one each 2.9 minutes, about 520 kcal), 30
/// exercise minutes and 70 glucose readings (a sensor's app, one each 20 minutes); one
/// sample in 10,000 is a 30-minute run instead (one every ten days). 10,000,000 samples
/// are then 10,000 days, 27 years, back to 1995.
let benchEnd = Date(timeIntervalSince1970: 1_664_582_400)
let benchDensity = 1000

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

/// The bulk sample `back` places before the end (0: the newest), starting `back + 1`
/// spacings (a day / `benchDensity`) before `benchEnd`. Of each 100 places: 40 step
/// counts, 50 active energy, 3 exercise minutes and 7 glucose readings, but place 99 of
/// each 10,000 (an energy place) is a workout.
func benchSample(back: Int, uuid: UUID) -> HealthSample {
  let spacing = 86_400 / Double(benchDensity)
  let start = benchEnd.addingTimeInterval(-Double(back + 1) * spacing)
  let type: SampleType
  let value: Double
  let source: SourceRevision
  let device: HealthDevice?
  var workout: WorkoutDetails?
  // 41 is prime to 100: the types of each 100 places are interleaved, not in runs.
  switch back % 10_000 == 99 ? -1 : back * 41 % 100 {
  case 0..<40:
    (type, value, source, device) = (.stepCount, Double(5 + back % 31), phone, phoneDevice)
  case 40..<90:
    (type, value, source, device) = (
      .activeEnergyBurned, 0.2 + Double(back % 20) / 10, watch, watchDevice
    )
  case 90..<93:
    (type, value, source, device) = (.appleExerciseTime, 1, watch, watchDevice)
  case 93..<100:
    (type, value, source, device) = (.bloodGlucose, 80 + Double(back % 60), sensor, nil)
  default:
    let details = WorkoutDetails(
      activityType: .running, duration: 1800, totalEnergyBurned: 310, totalDistance: 5200)
    (type, value, source, device) = (.workout, details.duration / 60, watch, watchDevice)
    workout = details
  }
  let end: Date
  switch type {
  case .workout: end = start.addingTimeInterval(1800)
  case .appleExerciseTime: end = start.addingTimeInterval(60)
  case _ where type.isInstantaneous: end = start
  default: end = start.addingTimeInterval(spacing)
  }
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
