// Candidate stores for HealthSim's samples, one command per process (issue 15 item 4;
// scripts/bench-storage.sh runs this and docs/performance.md, "Health storage candidates",
// reads its lines).
//
//   health-storage-bench generate CANDIDATE DIR COUNT
//   health-storage-bench run CANDIDATE DIR COUNT OPERATION [RUN]
//
// CANDIDATE: today | journal | sqlite. OPERATION: open | add | add1000 | delete | compact |
// anchored | range | stats | syncid | check. RUN (0, 1, …) picks a different sample to delete.
import Foundation
import HealthSim
import WeighKit

func milliseconds(since start: UInt64) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The process's CPU time (user and system) in milliseconds.
func cpuMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("health-storage-bench: \(message)\n".utf8))
  exit(1)
}

/// A sample index not used yet: past the generated ones, and 8 apart for each position
/// used, so that the 1,000 samples of `add1000` do not meet the next command's.
func newIndex(_ count: Int, _ lastPosition: Int64) -> Int {
  // checked: positions stay below 2^53
  aligned(10 * count + 8 * Int(lastPosition), 0)
}

/// Sample index `index` moved to the next one of type `remainder` (index % 4).
func aligned(_ index: Int, _ remainder: Int) -> Int { index - index % 4 + remainder }

func openStorage(_ candidate: String, _ directory: String) throws -> any HealthStorage {
  switch candidate {
  case "today": try TodayStorage.open(directory)
  case "journal": try JournalStorage.open(directory)
  case "sqlite": try SQLiteStorage.open(directory)
  default: fail("unknown candidate \(candidate)")
  }
}

/// Writes `count` generated samples in transactions of 10,000, then compacts (today) or
/// builds the indexes (journal).
func generate(_ candidate: String, _ directory: String, _ count: Int) throws {
  let start = now()
  let storage: any HealthStorage =
    candidate == "today"
    ? try TodayStorage.open(directory, compaction: .manual) : try openStorage(candidate, directory)
  var index = Int(storage.lastPosition)
  while index < count {
    let end = min(count, index + 10_000)
    try storage.save((index..<end).map(Workload.sample))
    index = end
  }
  let written = milliseconds(since: start)
  let finish = now()
  if let today = storage as? TodayStorage { try today.store.compact() }
  if let journal = storage as? JournalStorage { try journal.buildIndexes() }
  try storage.close()
  print(
    String(
      format: "generate %@ %d: written in %.0f ms, compaction/index build %.0f ms", candidate,
      count, written, milliseconds(since: finish)))
}

func run(_ candidate: String, _ directory: String, _ count: Int, _ operation: String, _ run: Int)
  throws
{
  let openStart = now()
  let storage = try openStorage(candidate, directory)
  let openTime = milliseconds(since: openStart)
  let middle = count / 2
  let day: TimeInterval = 86_400
  let middleDay = Workload.start(middle).addingTimeInterval(-day / 2)
  let operationStart = now()
  let operationCPU = cpuMilliseconds()
  let result: String
  switch operation {
  case "open":
    result = "last position \(storage.lastPosition)"
  case "add":
    let sample = Workload.sample(newIndex(count, storage.lastPosition))
    result = "saved at \(try storage.save([sample]))"
  case "add1000":
    let first = newIndex(count, storage.lastPosition)
    result = "saved through \(try storage.save((first..<first + 1000).map(Workload.sample)))"
  case "compact":
    if let today = storage as? TodayStorage { try today.store.compact() }
    if let journal = storage as? JournalStorage { try journal.buildIndexes() }
    if let sqlite = storage as? SQLiteStorage { try sqlite.checkpoint() }
    result = "compacted"
  case "delete":
    let index = aligned(middle + 4 * run, 0)
    let deleted = try storage.delete(Workload.uuid(index), at: Workload.start(count + run))
    result = "deleted sample \(index): \(deleted)"
  case "anchored":
    let anchor = max(0, storage.lastPosition - 100)
    let changes = try storage.changes(of: .stepCount, after: anchor)
    result = "\(changes.count) changes after \(anchor)"
  case "range":
    let samples = try storage.samples(of: .heartRate, from: middleDay, to: middleDay + day)
    result = "\(samples.count) samples in a day"
  case "stats":
    let month = middleDay.addingTimeInterval(-15 * day)
    let daily = try storage.statistics(
      of: .stepCount, from: month, to: month + 30 * day, bucket: day)
    let weekly = try storage.statistics(
      of: .heartRate, from: month, to: month + 30 * day, bucket: 7 * day)
    let steps = daily.reduce(0) { $0 + $1.sum }
    let beats = weekly.reduce(0) { $0 + $1.count }
    result = String(
      format: "%d daily step buckets (%.0f steps), %d weekly heart rate buckets (%d samples)",
      daily.count, steps, weekly.count, beats)
  case "syncid":
    let index = aligned(middle, 1)
    let found = try storage.sample(
      syncIdentifier: "steps-\(index)", type: .stepCount,
      bundle: Workload.sources[index % Workload.sources.count].bundleIdentifier)
    result = "steps-\(index): \(found == nil ? "not found" : "found")"
  case "check":
    if let sqlite = storage as? SQLiteStorage {
      result = "integrity_check: \(try sqlite.integrityCheck(quick: false).joined(separator: "; "))"
    } else {
      result = "(no check for \(candidate))"
    }
  default:
    fail("unknown operation \(operation)")
  }
  let operationTime = milliseconds(since: operationStart)
  let cpuTime = cpuMilliseconds() - operationCPU
  let closeStart = now()
  try storage.close()
  print(
    String(
      format: "%@ %d %@ open %.2f ms, operation %.2f ms, cpu %.2f ms, close %.2f ms: %@",
      candidate, count, operation, openTime, operationTime, cpuTime,
      milliseconds(since: closeStart),
      result))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch (arguments.first, arguments.count) {
  case ("generate", 4):
    // checked: parses text, nil when out of range
    guard let count = Int(arguments[3]), count >= 0 else { fail("bad count \(arguments[3])") }
    try generate(arguments[1], arguments[2], count)
  case ("run", 5), ("run", 6):
    // checked: parses text, nil when out of range
    guard let count = Int(arguments[3]), count > 0 else { fail("bad count \(arguments[3])") }
    // checked: parses text, nil when out of range
    let runNumber = arguments.count == 6 ? Int(arguments[5]) ?? 0 : 0
    try run(arguments[1], arguments[2], count, arguments[4], runNumber)
  default:
    fail(
      "usage: health-storage-bench generate CANDIDATE DIR COUNT | run CANDIDATE DIR COUNT OPERATION [RUN]"
    )
  }
} catch {
  fail("\(error)")
}
