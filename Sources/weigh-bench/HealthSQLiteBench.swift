import Foundation
import HealthSim
import WeighKit

/// Times the SQLite Health storage's operations over `count` samples in `path` (made on the
/// first run: one sample every 30 s from 2020-01-01, by turns heart rate, steps with a sync
/// identifier, heart rate, active energy, from three sources, 10,000 to a transaction, as
/// `Benchmarks/HealthStorage` makes them). Prints each operation's median wall and CPU time.
func benchHealthSQLite(path: String, count: Int, runs: Int) throws {
  let epoch = Date(timeIntervalSince1970: 1_577_836_800)
  let types: [SampleType] = [.heartRate, .stepCount, .heartRate, .activeEnergyBurned]
  let bundles = ["com.apple.health.watch", "com.apple.health.phone", "com.withings.wiScaleNG"]
  func sample(_ index: Int) -> HealthSample {
    let type = types[index % 4]
    let start = epoch.addingTimeInterval(Double(index) * 30)
    var metadata: Metadata = [:]
    if type == .stepCount {
      metadata[MetadataKey.syncIdentifier] = .string("steps-\(index)")
      metadata[MetadataKey.syncVersion] = .number(1)
    }
    let value =
      type == .stepCount
      ? Double(20 + index % 97) : type == .heartRate ? Double(54 + index % 37) : 0.5
    return HealthSample(
      uuid: UUID(), type: type, startDate: start, endDate: start.addingTimeInterval(30),
      value: value,
      sourceRevision: SourceRevision(
        source: HealthSource(name: "Bench", bundleIdentifier: bundles[index % 3]), version: "1"),
      device: nil, metadata: metadata, creationDate: start, workout: nil)
  }
  var storage = try HealthSQLiteStorage(path: path)
  var last = try storage.lastPosition()
  let target = Int64(truncatingIfNeeded: count)
  let made = Date()
  while last < target {
    var changes: [HealthChange] = []
    while changes.count < 10_000, last < target {
      last += 1
      // checked: positions here are below the count given, an Int
      changes.append(.sampleSaved(sample(Int(last) - 1), position: last))
    }
    try storage.apply(changes)
  }
  if Date().timeIntervalSince(made) > 0.5 {
    print(String(format: "made %d samples: %.2f s", count, Date().timeIntervalSince(made)))
  }
  let middle = epoch.addingTimeInterval(Double(count) * 15)
  let day: TimeInterval = 86_400
  let month = (0...30).map { middle.addingTimeInterval((Double($0) - 15) * day) }
  let steps = count / 2 - (count / 2) % 4 + 1
  func cpu() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
  func time(_ name: String, _ body: () throws -> Void) rethrows {
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<runs {
      let start = Date()
      let before = cpu()
      try body()
      cpus.append(cpu() - before)
      walls.append(Date().timeIntervalSince(start))
    }
    print(
      String(
        format: "%@: %.2f ms wall, %.2f ms cpu (median of %d)", name,
        walls.sorted()[runs / 2] * 1000, cpus.sorted()[runs / 2] * 1000, runs))
  }
  try time("open and close") {
    try storage.close()
    storage = try HealthSQLiteStorage(path: path)
  }
  try time("anchored (steps after the last position - 100)") {
    _ = try storage.changes(of: .stepCount, after: last - 100, limit: 0)
  }
  try time("range (a day of heart rate)") {
    _ = try storage.samples(of: .heartRate, startingIn: middle..<middle + day, bundle: nil)
  }
  try time("stats (steps per day over a month)") {
    _ = try storage.statistics(of: .stepCount, boundaries: month, bundle: nil)
  }
  try time("syncid") {
    _ = try storage.samples(syncIdentifier: "steps-\(steps)", type: .stepCount, bundle: nil)
  }
  try time("add (one sample and the state)") {
    last += 1
    var state = HealthSmallState(clock: epoch, app: HealthStore.defaultApp, seed: 1)
    state.counter = last
    // checked: positions here are below the count given plus the runs, an Int
    try storage.apply([.sampleSaved(sample(Int(last) - 1), position: last), .stateChanged(state)])
  }
  try time("counts") { _ = try storage.counts(of: nil) }
  try storage.close()
}
