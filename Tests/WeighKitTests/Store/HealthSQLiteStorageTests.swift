import Foundation
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// `HealthSQLiteStorage` against `InMemorySampleStorage` through `HealthSampleStorage`:
/// random sequences of changes give the same answers to every query, before and after the
/// database is closed and opened again; a change the rules refuse changes neither.
@Suite struct HealthSQLiteStorageTests {
  static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
  static let types: [SampleType] = [.stepCount, .heartRate, .bodyMass, .activeEnergyBurned]
  static let bundles = ["com.apple.health.watch", "com.withings.wiscale", "org.weigh.app"]

  /// The UUID numbered `number`.
  static func uuid(_ number: Int) -> UUID {
    UUID(uuidString: "00000000-0000-4000-8000-" + hex12(number))!
  }

  static func hex12(_ number: Int) -> String {
    let digits = String(number, radix: 16)
    return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
  }

  /// A sample made from `code`: its type, start (a whole minute in ten days), value, source
  /// and, for some steps, a sync identifier from a pool of four.
  static func sample(_ code: Int, uuid: UUID, syncIdentifier: String? = nil) -> HealthSample {
    let type = types[code % types.count]
    let start = epoch.addingTimeInterval(Double(code % 14_400) * 60)
    let value: Double
    switch type {
    case .stepCount: value = Double(code % 5000)
    case .heartRate: value = 50 + Double(code % 130)
    case .bodyMass: value = 50 + Double(code % 400) / 4
    default: value = Double(code % 2000) / 4
    }
    var metadata: Metadata = [:]
    let identifier = syncIdentifier ?? (type == .stepCount && code % 3 == 0 ? "s\(code % 4)" : nil)
    if let identifier {
      metadata[MetadataKey.syncIdentifier] = .string(identifier)
      metadata[MetadataKey.syncVersion] = .number(Double(code % 7 + 1))
    }
    // Fifteen writers (bundle and version): new origins come all along a sequence, in
    // savepoints and steps that are then rolled back too (format 2 keeps each once).
    let revision = SourceRevision(
      source: HealthSource(name: "source \(code % 3)", bundleIdentifier: bundles[code % 3]),
      version: "1.\(code / 3 % 5)")
    return HealthSample(
      uuid: uuid, type: type, startDate: start,
      endDate: start.addingTimeInterval(Double(code % 5) * 60), value: value,
      sourceRevision: revision, device: nil, metadata: metadata, creationDate: start,
      workout: nil)
  }

  /// One step of a sequence.
  enum Operation {
    case apply([HealthChange])
    case append([HealthRecord])
    case reopen
  }

  /// The operation `code` makes on what `reference` holds now; `next` numbers new UUIDs.
  static func operation(_ code: Int, on reference: InMemorySampleStorage, next: inout Int)
    throws -> Operation
  {
    let last = try reference.lastPosition()
    let live = try reference.records(after: 0, limit: 0).compactMap { record -> HealthSample? in
      if case .sample(let sample, _) = record { return sample }
      return nil
    }
    let victim = live.isEmpty ? nil : live[(code / 10) % live.count]
    let date = epoch.addingTimeInterval(Double(last + 1) * 60)
    func newSample(_ offset: Int) -> HealthSample {
      next += 1
      return sample(code / 10 + offset * 7919, uuid: uuid(next))
    }
    switch code % 10 {
    case 0, 1, 2:
      var changes = (0..<(1 + code % 4)).map { offset in
        HealthChange.sampleSaved(newSample(offset), position: last + 1 + Int64(offset))
      }
      if code % 5 == 0 {
        var state = HealthSmallState(
          clock: date, app: HealthStore.defaultApp, seed: UInt64(code))
        state.counter = last + Int64(changes.count)
        changes.append(.stateChanged(state))
      }
      return .apply(changes)
    case 3 where victim != nil:
      return .apply([.sampleDeleted(uuid: victim!.uuid!, position: last + 1, date: date)])
    case 4 where victim != nil:
      // A replacement by sync identifier: the old sample's deletion and the new one's save.
      next += 1
      let replacement = sample(
        code / 10, uuid: uuid(next), syncIdentifier: victim!.syncIdentifier ?? "s\(code % 4)")
      return .apply([
        .sampleDeleted(uuid: victim!.uuid!, position: last + 1, date: date),
        .sampleSaved(replacement, position: last + 2),
      ])
    case 5:
      let cutoff = code % 3 == 0 ? nil : epoch.addingTimeInterval(Double((code / 10) % 60) * 60)
      return .apply([.deletedObjectsPurged(before: cutoff)])
    case 6:
      return .apply([.deletedObjectsTrimmed(keeping: (code / 10) % 4)])
    case 7:
      // Refused: a position that does not grow, or a UUID a live sample has, after a valid
      // save; nothing of the transaction may stay.
      let valid = HealthChange.sampleSaved(newSample(0), position: last + 1)
      if let victim, code % 20 < 10 {
        return .apply([valid, .sampleSaved(victim, position: last + 2)])
      }
      return .apply([valid, .sampleSaved(newSample(1), position: last + 1)])
    case 8:
      // Appended records, as a migration writes them: samples and deleted-object records.
      return .append(
        (0..<(1 + code % 3)).map { offset in
          let made = newSample(offset)
          let position = last + 1 + Int64(offset)
          return offset % 2 == 1
            ? .deletion(DeletedObjectRecord(deleting: made, at: date), position: position)
            : .sample(made, position: position)
        })
    default:
      return .reopen
    }
  }

  /// Every query both storages answer, compared; `probe` picks anchors, ranges and sources.
  static func expectSameAnswers(
    _ model: InMemorySampleStorage, _ sqlite: HealthSQLiteStorage, probe: Int,
    _ context: String
  ) throws {
    let records = try model.records(after: 0, limit: 0)
    #expect(try sqlite.records(after: 0, limit: 0) == records, "\(context): records")
    let last = try model.lastPosition()
    #expect(try sqlite.lastPosition() == last, "\(context): last position")
    #expect(try sqlite.smallState() == model.smallState(), "\(context): state")
    #expect(try sqlite.counts(of: nil) == model.counts(of: nil), "\(context): counts")
    let anchor = Int64(probe) % (last + 2)
    #expect(
      try sqlite.records(after: anchor, limit: probe % 3)
        == model.records(after: anchor, limit: probe % 3), "\(context): records after")
    for position in 0...(last + 1) {
      #expect(try sqlite.record(at: position) == model.record(at: position), "\(context): at")
    }
    let day: TimeInterval = 86_400
    let boundaries = (0...10).map { epoch.addingTimeInterval(Double($0) * day) }
    let bundle = probe % 4 == 3 ? nil : bundles[probe % 3]
    let from = epoch.addingTimeInterval(Double(probe % 9) * day)
    let range = from..<from.addingTimeInterval(Double(1 + probe % 3) * day)
    for type in types {
      #expect(try sqlite.counts(of: type) == model.counts(of: type), "\(context): counts")
      #expect(
        try sqlite.longestDuration(of: type) == model.longestDuration(of: type),
        "\(context): longest duration")
      #expect(
        try sqlite.newestSample(of: type) == model.newestSample(of: type), "\(context): newest")
      #expect(
        try sqlite.changes(of: type, after: anchor, limit: probe % 4)
          == model.changes(of: type, after: anchor, limit: probe % 4), "\(context): changes")
      #expect(
        try sqlite.samples(of: type, startingIn: range, bundle: bundle)
          == model.samples(of: type, startingIn: range, bundle: bundle), "\(context): range")
      #expect(
        try sqlite.samples(of: type, startingIn: nil, bundle: nil)
          == model.samples(of: type, startingIn: nil, bundle: nil), "\(context): all")
      for source in [nil, bundle] {
        #expect(
          try sqlite.statistics(of: type, boundaries: boundaries, bundle: source)
            == model.statistics(of: type, boundaries: boundaries, bundle: source),
          "\(context): statistics")
      }
      for identifier in (0..<4).map({ "s\($0)" }) {
        #expect(
          try sqlite.samples(syncIdentifier: identifier, type: type, bundle: bundle)
            == model.samples(syncIdentifier: identifier, type: type, bundle: bundle),
          "\(context): sync identifier")
      }
    }
    // UUID prefixes: every length of the records' UUIDs, a prefix they all share, none,
    // and what is not lower-case hex.
    var prefixes = ["", "0000", "00000000000040008000", "ffff", "ABCD", "00-0", "0000g"]
    for (index, record) in records.enumerated() {
      let uuid: UUID
      switch record {
      case .sample(let sample, _): uuid = sample.uuid!
      case .deletion(let deleted, _): uuid = deleted.uuid
      }
      prefixes.append(String(uuid.compactHex.prefix((probe + index * 7) % 34)))
    }
    for prefix in prefixes {
      for limit in [0, 1, 2] {
        #expect(
          try sqlite.samples(uuidPrefix: prefix, limit: limit)
            == model.samples(uuidPrefix: prefix, limit: limit), "\(context): prefix \(prefix)")
      }
    }
    for record in records {
      let uuid: UUID
      switch record {
      case .sample(let sample, _): uuid = sample.uuid!
      case .deletion(let deleted, _): uuid = deleted.uuid
      }
      #expect(try sqlite.sample(uuid: uuid) == model.sample(uuid: uuid), "\(context): uuid")
    }
  }

  @Test func randomChangesGiveTheSameAnswersAsInMemoryBeforeAndAfterReopening() async {
    await propertyCheck(count: 25, input: Gen.int(in: 0...100_000).array(of: 1...30)) { codes in
      failingOnThrow {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        let path = directory.file(HealthSQLiteStorage.fileName)
        let model = InMemorySampleStorage()
        var sqlite = try HealthSQLiteStorage(path: path)
        try Self.replay(codes, on: model, and: &sqlite, path: path) {
          step, code, outcomes, current in
          let context = "step \(step) (code \(code))"
          if let (inMemory, inSQLite) = outcomes {
            expectSameOutcome(inMemory, inSQLite, context)
          }
          try Self.expectSameAnswers(model, current, probe: code / 7, context)
        }
        // A state whose counter is the last position, as every Health command writes it:
        // `check` compares them.
        var state = HealthSmallState(
          clock: Self.epoch, app: HealthStore.defaultApp, seed: UInt64(codes.count))
        state.counter = try model.lastPosition()
        try model.apply([.stateChanged(state)])
        try sqlite.apply([.stateChanged(state)])
        try sqlite.close()
        let reopened = try HealthSQLiteStorage(path: path)
        defer { try? reopened.close() }
        try Self.expectSameAnswers(model, reopened, probe: codes.count, "reopened")
        #expect(HealthSQLiteStorage.check(path: path).isEmpty)
      }
    }
  }

  /// The same sequences inside a command's transaction, as a Health command writes: the
  /// operations in savepoints that are then kept or, now and then, rolled back (a savepoint
  /// stays open over several operations now and then, so that a deletion or a purge can
  /// remove what it wrote), and each write in a step that a refused change rolls back
  /// alone. The anchored reads of what was just written (which the command's writer answers
  /// from the records it wrote) give what the model gives, for every anchor near the end.
  @Test func randomChangesInACommandWithSavepointsGiveTheSameAnswersAsInMemory() async {
    await propertyCheck(count: 25, input: Gen.int(in: 0...100_000).array(of: 1...30)) { codes in
      failingOnThrow {
        let directory = TemporaryStoreDirectory()
        defer { directory.remove() }
        let path = directory.file(HealthSQLiteStorage.fileName)
        var model = InMemorySampleStorage()
        var sqlite = try HealthSQLiteStorage(path: path)
        try sqlite.beginCommand()
        var next = 0
        // The model as it was when the open savepoint was opened; nil when none is open.
        var atSavepoint: InMemorySampleStorage?
        for (step, code) in codes.enumerated() {
          let context = "step \(step) (code \(code))"
          // The next new UUIDs are asked for first, as HealthStore asks for each UUID it
          // draws: the storage then saves them without a look-up of its own
          // (`Writer.absentUUIDs`), through savepoints, steps and refusals.
          for ahead in 1...3 {
            #expect(try sqlite.sample(uuid: Self.uuid(next + ahead)) == nil, "\(context)")
          }
          let operation = try Self.operation(code, on: model, next: &next)
          if case .reopen = operation {
            if atSavepoint != nil { try sqlite.releaseSavepoint() }
            atSavepoint = nil
            try sqlite.commitCommand(pending: nil, appSequence: 0)
            try sqlite.close()
            sqlite = try HealthSQLiteStorage(path: path)
            try sqlite.beginCommand()
            try Self.expectSameAnswers(model, sqlite, probe: code / 7, context)
            continue
          }
          if atSavepoint == nil {
            try sqlite.openSavepoint()
            atSavepoint = model.copy()
          }
          let expected: String?
          let actual: String?
          switch operation {
          case .apply(let changes):
            expected = Self.outcome { try model.apply(changes) }
            actual = Self.outcome { try sqlite.step { try sqlite.apply(changes) } }
          case .append(let records):
            expected = Self.outcome { try model.append(records) }
            actual = Self.outcome { try sqlite.step { try sqlite.append(records) } }
          case .reopen:
            continue
          }
          expectSameOutcome(expected, actual, context)
          try Self.expectRecentChanges(model, sqlite, context)
          switch code % 6 {
          case 1:
            sqlite.rollBackSavepoint()
            model = atSavepoint ?? model
            atSavepoint = nil
          case 2, 3:
            break  // The savepoint stays open for the next operation.
          default:
            try sqlite.releaseSavepoint()
            atSavepoint = nil
          }
          try Self.expectRecentChanges(model, sqlite, context + ", savepoint kept or ended")
          try Self.expectSameAnswers(model, sqlite, probe: code / 7, context)
        }
        if atSavepoint != nil { try sqlite.releaseSavepoint() }
        try sqlite.commitCommand(pending: nil, appSequence: 0)
        try sqlite.close()
        let reopened = try HealthSQLiteStorage(path: path)
        defer { try? reopened.close() }
        try Self.expectSameAnswers(model, reopened, probe: codes.count, "reopened")
      }
    }
  }

  /// The changes of every type after each of the last few positions, as many as there are
  /// and one at a time.
  static func expectRecentChanges(
    _ model: InMemorySampleStorage, _ sqlite: HealthSQLiteStorage, _ context: String
  ) throws {
    let last = try model.lastPosition()
    #expect(try sqlite.lastPosition() == last, "\(context): last position")
    for anchor in max(0, last - 4)...(last + 1) {
      for type in types {
        for limit in [0, 1] {
          #expect(
            try sqlite.changes(of: type, after: anchor, limit: limit)
              == model.changes(of: type, after: anchor, limit: limit),
            "\(context): changes of \(type) after \(anchor), limit \(limit)")
        }
      }
    }
  }

  /// nil when `body` succeeds, else its error's description.
  /// Runs the operations `codes` stand for on `model` and on `sqlite` (reopened from `path`
  /// where a code says so), calling `after` once each has run with the step, its code, the
  /// write's outcome in memory and in SQLite (`outcome`; nil for a reopening) and the
  /// storage as it now is.
  static func replay(
    _ codes: [Int], on model: InMemorySampleStorage, and sqlite: inout HealthSQLiteStorage,
    path: String,
    _ after: (
      _ step: Int, _ code: Int, _ outcomes: (String?, String?)?, _ sqlite: HealthSQLiteStorage
    ) throws -> Void
  ) throws {
    var next = 0
    for (step, code) in codes.enumerated() {
      switch try operation(code, on: model, next: &next) {
      case .apply(let changes):
        let inMemory = outcome { try model.apply(changes) }
        let inSQLite = outcome { try sqlite.apply(changes) }
        try after(step, code, (inMemory, inSQLite), sqlite)
      case .append(let records):
        let inMemory = outcome { try model.append(records) }
        let inSQLite = outcome { try sqlite.append(records) }
        try after(step, code, (inMemory, inSQLite), sqlite)
      case .reopen:
        try sqlite.close()
        sqlite = try HealthSQLiteStorage(path: path)
        try after(step, code, nil, sqlite)
      }
    }
  }

  static func outcome(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// Both succeeded, or both failed with the same rule's message.
  func expectSameOutcome(_ expected: String?, _ actual: String?, _ context: String) {
    switch (expected, actual) {
    case (nil, nil): break
    case (let model?, let sqlite?):
      #expect(sqlite.hasSuffix(model), "\(context): \(sqlite) against \(model)")
    default:
      Issue.record(
        "\(context): in memory \(expected ?? "succeeded"), sqlite \(actual ?? "succeeded")")
    }
  }
}
