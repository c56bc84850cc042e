// Benchmarks that must time one command inside a process whose setup costs far more
// (scripts/bench-sync.sh runs this). Prints one line per measurement.
import Foundation
import WeighKit

/// Discards output; benchmarks print their own lines.
final class NullOutput: OutputSink {
  func write(_ text: String, to channel: OutputChannel) {
    if channel == .standardError { FileHandle.standardError.write(Data(text.utf8)) }
  }
  func flush() {}
}

func session() -> Session {
  var options = SessionOptions.golden
  options.keepGoing = false
  return try! Session(options: options, output: NullOutput())
}

func seconds(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func run(_ session: Session, _ script: String) {
  guard session.run(script: script, display: "bench", directory: ".") else {
    fatalError("benchmark script failed: \(script)")
  }
}

/// An incremental sync of one new sample over `stored` samples already synced.
func incrementalSync(stored: Int, repeats: Int) -> Double {
  let bench = session()
  // One reading a minute: `stored` samples written by a simulated scale, then synced.
  run(
    bench,
    "clock 2020-01-01T00:00Z\nsimulate scale every 1min start 70kg\nadvance \(stored)min\nsimulate stop all\nsync"
  )
  var times: [Double] = []
  var adds: [Double] = []
  for _ in 0..<repeats {
    run(bench, "advance 1min")
    adds.append(seconds { run(bench, "health add 70.1kg source Withings") })
    times.append(seconds { run(bench, "sync") })
  }
  let add = adds.sorted()[adds.count / 2]
  print("  (the health add before each sync: \(String(format: "%.3f", add * 1000)) ms)")
  return times.sorted()[times.count / 2]
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "sync":
  for stored in arguments.dropFirst().compactMap(Int.init) {
    let median = incrementalSync(stored: stored, repeats: 21)
    print(
      "incremental sync of 1 new sample over \(stored) stored: \(String(format: "%.3f", median * 1000)) ms (median of 21)"
    )
  }
case "years":
  // checked: parses text, nil when out of range
  let years = Int(arguments.dropFirst().first ?? "10") ?? 10
  let bench = session()
  let elapsed = seconds {
    run(
      bench,
      "observe on\napp background\nsimulate scale every 1d at 07:00 start 80kg noise 0.3kg\nadvance \(years * 365)d\nexpect entries == \(years * 365)"
    )
  }
  print(
    "\(years) simulated years of a daily scale, background observer, sync per delivery: \(String(format: "%.3f", elapsed)) s"
  )
case "health-sqlite-append":
  // The child of HealthSQLiteCrashTests: appends batches to a Health database until it is
  // killed, printing each batch's last position once its transaction has committed.
  // With `command`, each batch is a command's transaction (`beginCommand`, `commitCommand`).
  guard arguments.count == 3 || (arguments.count == 4 && arguments.last == "command"),
    // checked: parses text, nil when out of range
    let batch = Int(arguments.dropFirst(2).first ?? ""), batch > 0
  else {
    print("usage: weigh-bench health-sqlite-append <file> <batch> [command]")
    exit(ExitStatus.usage.rawValue)
  }
  appendUntilKilled(
    path: String(arguments.dropFirst().first ?? ""), batch: batch,
    asCommands: arguments.count == 4)
case "health-sqlite":
  // checked: parses text, nil when out of range
  guard arguments.count == 3, let count = Int(arguments.dropFirst(2).first ?? ""), count > 0
  else {
    print("usage: weigh-bench health-sqlite <file> <samples>")
    exit(ExitStatus.usage.rawValue)
  }
  do {
    try benchHealthSQLite(path: String(arguments.dropFirst().first ?? ""), count: count, runs: 7)
  } catch {
    print("\(error)")
    exit(1)
  }
case "health-store":
  // scripts/bench-health.sh's store: 1,000 body-mass readings and N samples of the other
  // types, 1,000 a day up to the bench's clock (HealthBenchStore.swift).
  // checked: parses text, nil when out of range
  guard arguments.count == 3, let count = Int(arguments.dropFirst(2).first ?? ""), count >= 0
  else {
    print(
      "usage: weigh-bench health-store <new store directory> <samples of the other types, 0 or more>"
    )
    exit(ExitStatus.usage.rawValue)
  }
  do {
    try makeHealthBenchStore(directory: String(arguments.dropFirst().first ?? ""), others: count)
  } catch {
    FileHandle.standardError.write(Data("weigh-bench: \(error)\n".utf8))
    exit(1)
  }
case "health-json-store":
  // A store of the layout before health.sqlite, for the measurements of its migration
  // (HealthJSONStore.swift).
  // checked: parses text, nil when out of range
  guard arguments.count == 4, let count = Int(arguments.dropFirst(3).first ?? ""), count >= 0
  else {
    print(
      "usage: weigh-bench health-json-store <template store> <new store directory> <records, 0 or more>"
    )
    exit(ExitStatus.usage.rawValue)
  }
  let given = Array(arguments.dropFirst())
  do {
    try makeHealthJSONStore(template: given[0], directory: given[1], count: count)
  } catch {
    FileHandle.standardError.write(Data("weigh-bench: \(error)\n".utf8))
    exit(1)
  }
default:
  print(
    "usage: weigh-bench sync <stored>… | weigh-bench years [n] | weigh-bench health-sqlite <file> <samples> | weigh-bench health-sqlite-append <file> <batch> [command] | weigh-bench health-store <directory> <samples> | weigh-bench health-json-store <template> <directory> <records>"
  )
  exit(ExitStatus.usage.rawValue)
}
