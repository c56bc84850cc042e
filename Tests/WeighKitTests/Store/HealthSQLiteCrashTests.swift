import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// A process killed (SIGKILL) at a random moment while it appends batches to `health.sqlite`
/// (`weigh-bench health-sqlite-append`, one transaction of samples and the state per batch)
/// leaves every batch it had committed and none of the one it was writing: the positions
/// are whole batches, the state's counter is the last of them, `check` finds nothing, and
/// the database takes new commits.
@Suite struct HealthSQLiteCrashTests {
  static let batch = 400

  /// Starts the child, waits for `commits` acknowledged batches and then `delay`
  /// microseconds, kills it; returns the last position it acknowledged. With `asCommands`,
  /// each batch of `batch` samples is a command (`HealthSQLiteUUIDIndexTests`).
  static func appendAndKill(
    _ path: String, commits: Int, delay: UInt32, batch: Int = batch, asCommands: Bool = false
  ) throws -> Int64 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: builtProduct(named: "weigh-bench"))
    process.arguments =
      ["health-sqlite-append", path, String(batch)] + (asCommands ? ["command"] : [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    let reader = output.fileHandleForReading
    while text.filter({ $0 == "\n" }).count < commits {
      let data = reader.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    usleep(delay)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .uncaughtSignal, "the child stopped by itself: \(text)")
    let lines = text.split(separator: "\n")
    // checked: the child prints whole positions; a torn last line is not acknowledged
    return lines.dropLast(text.hasSuffix("\n") ? 0 : 1).last.flatMap { Int64($0) } ?? 0
  }

  @Test func aKillDuringABatchLeavesTheWholeTransactionOrNoneOfIt() throws {
    let built = builtProduct(named: "weigh-bench")
    try #require(FileManager.default.isExecutableFile(atPath: built), "build weigh-bench first")
    var generator = SeededGenerator(seed: 1)
    for round in 0..<6 {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let path = directory.file(HealthSQLiteStorage.fileName)
      var acknowledged: Int64 = 0
      // Two kills on the same database: the second one after a recovery.
      for kill in 0..<2 {
        let delay = UInt32(generator.next() % 150_000)
        acknowledged = max(
          acknowledged,
          try Self.appendAndKill(path, commits: 1 + round % 3, delay: delay))
        let storage = try HealthSQLiteStorage(path: path)
        let last = try storage.lastPosition()
        let context = "round \(round), kill \(kill), \(delay) µs after the acknowledgements"
        #expect(last % Int64(Self.batch) == 0, "\(context): a part of a batch is kept")
        #expect(last >= acknowledged, "\(context): an acknowledged batch was lost")
        #expect(try storage.smallState()?.counter == last, "\(context): the state disagrees")
        let positions = try storage.records(after: 0, limit: 0).map(\.position)
        #expect(positions == Array(stride(from: 1, through: last, by: 1)), "\(context)")
        #expect(try storage.counts(of: nil).samples == Int(last), "\(context): counts")
        try storage.close()
        #expect(HealthSQLiteStorage.check(path: path).isEmpty, "\(context): check")
      }
    }
  }
}
