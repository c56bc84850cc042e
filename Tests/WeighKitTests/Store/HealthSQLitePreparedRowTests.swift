import Foundation
import GRDB
import HealthSim
import Testing

@testable import WeighKit

/// A row prepared on the import's reading thread (`HealthSQLitePreparedRow`) is the row the
/// saving thread made from the saved sample: the same parts, shape and duration, and a row
/// of no shape is said to read back exactly when it does, for every kind of sample; a
/// preparation that does not fit the saved sample is not used; and a storage given
/// preparations writes the same rows as without.
@Suite struct HealthSQLitePreparedRowTests {
  /// A sample as an import reads it (no UUID, writer or creation time), and as Health saves
  /// it; now and then with numbers outside their rules (no row shape then).
  static func pair(_ random: inout SeededGenerator) -> (read: HealthSample, saved: HealthSample) {
    var sample: HealthSample
    repeat {
      guard case .sample(let drawn, _) = HealthSQLiteRowPartsTests.record(&random, position: 1)
      else { continue }
      sample = drawn
      if !sample.type.isCorrelation { break }
    } while true
    var start = sample.startDate
    var end = sample.endDate
    var value = sample.value
    switch Int.random(in: 0..<12, using: &random) {
    case 0: value = [-1, -0.0, 1e300, 0.5].randomElement(using: &random)!
    case 1: end = start.addingTimeInterval(-1)
    case 2: start = Date(timeIntervalSince1970: 300_000_000_000)
    case 3:
      // A workout whose nested numbers are out of their rules (it reads back only if not).
      if let workout = sample.workout {
        return pairWith(
          WorkoutDetails(
            activityType: workout.activityType, duration: workout.duration,
            totalEnergyBurned: [-5, .infinity, 12].randomElement(using: &random)!))
      }
    default: break
    }
    func made(uuid: UUID?, revision: SourceRevision?, created: Date?) -> HealthSample {
      HealthSample(
        uuid: uuid, type: sample.type, startDate: start, endDate: end, value: value,
        sourceRevision: revision, device: sample.device, metadata: sample.metadata,
        creationDate: created, workout: sample.workout)
    }
    let revision =
      sample.sourceRevision
      ?? SourceRevision(source: HealthSource(name: "n", bundleIdentifier: "b"))
    let created =
      Int.random(in: 0..<20, using: &random) == 0
      ? Date(timeIntervalSince1970: -1e12) : HealthRecordLoadedTests.time(&random)
    return (
      made(uuid: nil, revision: nil, created: nil),
      made(uuid: UUID(), revision: revision, created: created)
    )
    func pairWith(_ workout: WorkoutDetails) -> (read: HealthSample, saved: HealthSample) {
      func made(uuid: UUID?, revision: SourceRevision?, created: Date?) -> HealthSample {
        HealthSample(
          uuid: uuid, type: .workout, startDate: start, endDate: end, value: value,
          sourceRevision: revision, device: sample.device, metadata: sample.metadata,
          creationDate: created, workout: workout)
      }
      return (
        made(uuid: nil, revision: nil, created: nil),
        made(uuid: UUID(), revision: sample.sourceRevision, created: Date())
      )
    }
  }

  @Test func aPreparedRowIsTheRowOfTheSavedSample() {
    var random = SeededGenerator(seed: 1701)
    var (shaped, readBack, refused) = (0, 0, 0)
    for _ in 1...3_000 {
      let (read, saved) = Self.pair(&random)
      let prepared = HealthSQLitePreparedRow(read)
      #expect(prepared.fits(saved))
      let position =
        Int.random(in: 0..<20, using: &random) == 0
        ? 0 : Int64.random(in: 1...1_000_000_000, using: &random)
      let parts = prepared.parts(of: saved, position: position)
      let expected = HealthSQLiteRowParts(saved, position: position)
      #expect(parts == expected, "\(saved)")
      let shape = HealthRowShape(parts, prepared: prepared)
      #expect(shape == HealthRowShape(saved, position: position), "\(saved)")
      if shape == nil {
        // Said to read back exactly when the saving thread's own read-back takes it.
        let reads =
          parts.numbersAreFinite
          && (try? HealthSQLiteStorage.Writer.readBack(parts)) != nil
        #expect(prepared.readsBack(parts) == reads, "\(saved)")
        if reads { readBack += 1 } else { refused += 1 }
      } else {
        shaped += 1
      }
      let start = Date(timeIntervalSince1970: saved.startDate.timeIntervalSince1970)
      let end = Date(timeIntervalSince1970: saved.endDate.timeIntervalSince1970)
      #expect(prepared.duration.bitPattern == end.timeIntervalSince(start).bitPattern)
    }
    #expect(shaped > 500 && readBack > 500 && refused > 100)
  }

  @Test func aPreparationOfOtherContentDoesNotFit() {
    var random = SeededGenerator(seed: 1702)
    for _ in 1...300 {
      let (read, saved) = Self.pair(&random)
      let prepared = HealthSQLitePreparedRow(read)
      func changed(
        type: SampleType? = nil, start: Date? = nil, end: Date? = nil, value: Double? = nil,
        metadata: Metadata? = nil, created: Date?? = nil
      ) -> HealthSample {
        HealthSample(
          uuid: saved.uuid, type: type ?? saved.type, startDate: start ?? saved.startDate,
          endDate: end ?? saved.endDate, value: value ?? saved.value,
          sourceRevision: saved.sourceRevision, device: saved.device,
          metadata: metadata ?? saved.metadata,
          creationDate: created ?? saved.creationDate, workout: saved.workout)
      }
      let others = [
        changed(type: saved.type == .stepCount ? .heartRate : .stepCount),
        changed(start: saved.startDate.addingTimeInterval(0.5)),
        changed(end: saved.endDate.addingTimeInterval(1)),
        changed(value: saved.value == 1 ? 2 : 1),
        changed(metadata: saved.metadata.isEmpty ? ["k": .string("v")] : [:]),
      ]
      for other in others { #expect(!prepared.fits(other), "\(other)") }
      // What a save sets is the saving thread's to set.
      #expect(prepared.fits(changed()))
      #expect(prepared.fits(changed(created: .some(nil))))
    }
  }

  /// Every column of every row and of the origins, in position order.
  static func dump(_ path: String) throws -> [[DatabaseValue]] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT \(HealthSQLiteFormat2.selection) FROM record ORDER BY pos")
      let origins = try Row.fetchAll(db, sql: "SELECT id, json, crc FROM origin ORDER BY id")
      return (rows + origins).map { Array($0.databaseValues) }
    }
  }

  /// The same saves with their preparations (some of them made from another sample, which
  /// are not used), without them, and through a storage that only takes them: the same rows,
  /// checksums and origins, and each file checks clean.
  @Test func aStorageGivenPreparationsWritesTheSameRows() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    var random = SeededGenerator(seed: 1703)
    let pairs = (0..<400).map { _ in Self.pair(&random) }
    let changes = pairs.enumerated().map { index, pair in
      HealthChange.sampleSaved(pair.saved, position: Int64(index + 1))
    }
    var preparations: [(any StoragePreparation)?] = pairs.map {
      HealthSQLiteStorage.prepare($0.read)
    }
    for index in stride(from: 5, to: preparations.count, by: 17) {
      preparations[index] = HealthSQLiteStorage.prepare(pairs[index - 1].read)
    }
    var dumps: [[[DatabaseValue]]] = []
    for (name, prepared) in [("with", preparations), ("without", [])] {
      let path = directory.file("\(name).sqlite")
      let storage = try HealthSQLiteStorage.create(at: path, directory: directory.path)
      try storage.beginCommand()
      // Unshaped rows with numbers a query would refuse are refused the same either way.
      let written = changes.indices.filter { index in
        (try? storage.apply([changes[index]], prepared: Array(prepared.dropFirst(index).prefix(1))))
          != nil
      }
      try storage.commitCommand(pending: nil, appSequence: 0)
      try storage.close()
      #expect(written.count > 300)
      #expect(HealthSQLiteStorage.check(path: path).isEmpty)
      dumps.append(try Self.dump(path))
    }
    #expect(dumps[0] == dumps[1])
  }
}
