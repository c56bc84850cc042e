import Foundation
import HealthSim
import WeighKit

/// Appends batches of `batch` samples to the Health database at `path`, each batch with a
/// state whose counter is its last position, one transaction each, for ever; prints each
/// batch's last position after its commit. With `asCommands`, each batch is a command's
/// transaction instead (`beginCommand`, `commitCommand`): the first one, on an empty table,
/// drops the UUID index and makes it again before its commit (`HealthSQLiteUUIDIndex`).
func appendUntilKilled(path: String, batch: Int, asCommands: Bool = false) -> Never {
  do {
    let storage = try HealthSQLiteStorage(path: path)
    let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    let source = SourceRevision(
      source: HealthSource(name: "Crash test", bundleIdentifier: "org.weigh.crash"), version: "1")
    var last = try storage.lastPosition()
    while true {
      var changes: [HealthChange] = []
      for _ in 0..<batch {
        last += 1
        let start = epoch.addingTimeInterval(Double(last) * 60)
        let sample = HealthSample(
          uuid: UUID(), type: .stepCount, startDate: start, endDate: start.addingTimeInterval(60),
          value: Double(last % 1000), sourceRevision: source, device: nil, metadata: [:],
          creationDate: start, workout: nil)
        changes.append(.sampleSaved(sample, position: last))
      }
      var state = HealthSmallState(clock: epoch, app: HealthStore.defaultApp, seed: 1)
      state.counter = last
      changes.append(.stateChanged(state))
      if asCommands { try storage.beginCommand() }
      try storage.apply(changes)
      if asCommands { try storage.commitCommand(pending: nil, appSequence: 0) }
      FileHandle.standardOutput.write(Data("\(last)\n".utf8))
    }
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
  }
}
