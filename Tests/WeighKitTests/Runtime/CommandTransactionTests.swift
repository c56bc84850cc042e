import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// One durable commit per command: `advance` through many Health events (a daily scale, a
/// background observer, a sync per delivery) writes one journal record, prints what it
/// prints in memory, and a simulated kill at any writing call (`WriteFaultInjector`) leaves
/// the store as it was before the command or after it, never in between.
@Suite struct CommandTransactionTests {
  static let setup = """
    observe on
    app background
    simulate scale every 1d at 07:00 start 80kg noise 0.3kg
    """
  static let command = "advance 12d"

  static let tables: [any StoreTableCodec.Type] = [
    HealthRecordCodec.self, HealthSyncIndexCodec.self,
  ]

  /// What a store holds: the log, Health's records, the documents, the last sequence.
  struct State: Equatable {
    var entries: [Entry]
    var health: [HealthRecord]
    var documents: [String: JSONValue]
    var sequence: Int
  }

  /// Opened as weigh opens it first (which finishes a commit that `health.sqlite` holds and
  /// the journal lacks), then read: Health's records from `health.sqlite`.
  static func state(of directory: String) throws -> State {
    var options = SessionOptions.golden
    options.store = .directory(directory)
    try Session(options: options, output: CapturedOutput()).close()
    let store = try Store.open(.directory(directory), tables: tables)
    defer { store.close() }
    let path = directory + "/" + HealthSQLiteStorage.fileName
    var health: [HealthRecord] = []
    if FileManager.default.fileExists(atPath: path) {
      let storage = try HealthSQLiteStorage(path: path, creating: false)
      defer { try? storage.close() }
      health = try storage.records(after: 0, limit: 0)
      #expect(try storage.pendingRecord().appSequence <= store.committedSequence)
    }
    return State(
      entries: try store.entries(), health: health, documents: store.documents,
      sequence: store.committedSequence)
  }

  /// Opens a session on `directory` (or in memory), runs `script`, closes; returns its output.
  @discardableResult
  static func run(_ script: String, in directory: String?) -> String {
    var options = SessionOptions.golden
    if let directory { options.store = .directory(directory) }
    let output = CapturedOutput()
    guard let session = try? Session(options: options, output: output) else { return "" }
    defer { session.close() }
    session.run(script: script, display: "test", directory: ".")
    return output.text
  }

  @Test func manyEventsInOneCommandAreOneJournalRecordAndPrintAsInMemory() throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    Self.run(Self.setup, in: base.path)
    // Opening alone may write (the observer registered again): that is not the command's.
    Self.run("", in: base.path)
    let before = try Self.state(of: base.path)
    let printed = Self.run(Self.command, in: base.path)
    let after = try Self.state(of: base.path)
    #expect(after.entries.count == before.entries.count + 12)
    #expect(after.sequence == before.sequence + 1)
    #expect(Store.check(.directory(base.path), tables: Self.tables).isEmpty)
    #expect(printed.contains("delivery #12"))
    #expect(printed == Self.run(Self.setup + "\n" + Self.command, in: nil).suffix(printed.count))
  }

  @Test func aCrashAtEveryWriteOfAManyEventCommandLosesAllOfItOrNothing() throws {
    let base = TemporaryStoreDirectory()
    defer { base.remove() }
    Self.run(Self.setup, in: base.path)
    Self.run("", in: base.path)
    let before = try Self.state(of: base.path)

    let whole = TemporaryStoreDirectory()
    defer { whole.remove() }
    base.copy(to: whole)
    let counter = WriteFaultInjector()
    WriteFaultInjector.$current.withValue(counter) { Self.run(Self.command, in: whole.path) }
    let after = try Self.state(of: whole.path)
    #expect(after.entries.count == before.entries.count + 12)
    #expect(counter.count > 0)

    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      base.copy(to: directory)
      let injector = WriteFaultInjector(remaining: crashAt)
      WriteFaultInjector.$current.withValue(injector) { Self.run(Self.command, in: directory.path) }
      #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
      let state = try Self.state(of: directory.path)
      #expect(
        state == before || state == after,
        "crash at call \(crashAt) of \(counter.count): \(state.entries.count) entries")
      let errors = Store.check(.directory(directory.path), tables: Self.tables).filter {
        $0.severity == .error
      }
      #expect(errors.isEmpty, "crash at call \(crashAt): \(errors)")
    }
  }
}
