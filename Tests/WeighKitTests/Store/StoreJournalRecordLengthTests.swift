import HealthSim
import Testing

@testable import WeighKit

/// `StoreJournal.encodedLength(sequence:removalsAnd:)` counts a record of removals and
/// documents without encoding its removals: the count is the length of the encoded line.
@Suite struct StoreJournalRecordLengthTests {
  /// The line's length, encoded.
  static func encoded(_ sequence: Int, _ changes: [StoreChange]) throws -> Int {
    var writer = JSONWriter()
    var length = 0
    try StoreJournal.encode(
      sequence: sequence, changes: changes, rows: EncodedRows(), into: &writer, pieceBytes: 1 << 10
    ) { bytes throws(StoreError) in length += bytes.count }
    return length
  }

  /// Runs of ids across the widths of their numbers (9 to 10, 99,999 to 100,001, …), alone
  /// or with documents, in one table or two, and single removals.
  @Test func theCountIsTheEncodedLength() throws {
    var generator = SeededGenerator(seed: 25)
    for round in 0..<200 {
      var changes: [StoreChange] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        var ids = IDRuns()
        var id = [1, 8, 95, 99_990, 999_999_990, Int.max - 40].randomElement(using: &generator)!
        for _ in 0..<Int.random(in: 1...30, using: &generator) {
          ids.append(id)
          guard id < Int.max - 3 else { break }
          id += Int.random(in: 1...3, using: &generator)
        }
        let table = Bool.random(using: &generator) ? "health" : "health-sync"
        changes.append(.removeRun(table: table, ids: ids))
      }
      if Bool.random(using: &generator) {
        changes.append(.remove(table: "entries", id: Int.random(in: 1...12_345, using: &generator)))
      }
      if round % 3 != 0 {
        changes.append(.removeDocument(name: "health"))
        changes.append(.setDocument(name: "healthFormat", value: .string("health.sqlite")))
      }
      let sequence = Int.random(in: 1...1_000_000, using: &generator)
      #expect(
        try StoreJournal.encodedLength(sequence: sequence, removalsAnd: changes)
          == Self.encoded(sequence, changes), "\(changes)")
    }
  }

  @Test func digitsOfARangeAreCountedByWidth() {
    for range in [0...0, 0...9, 0...10, 9...101, -12...3, -100 ... -10, 99_999...100_001] {
      #expect(
        StoreJournal.digits(in: range) == range.map { String($0).count }.reduce(0, +), "\(range)")
    }
    #expect(StoreJournal.digits(in: Int.max...Int.max) == 19)
    #expect(StoreJournal.digits(in: Int.min...Int.min) == 20)
    // Runs a step apart (own25's), as a migration's removals of every other position are.
    for run in [
      IDStepRun(-11, through: 9, step: 4), IDStepRun(1, through: 1_000_001, step: 1_000),
      IDStepRun(7, through: 7, step: 1), IDStepRun(Int.max - 20, through: Int.max, step: 5),
    ] {
      #expect(
        StoreJournal.digits(in: run) == run.map { String($0).count }.reduce(0, +), "\(run)")
    }
  }
}
