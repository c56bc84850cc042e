import Foundation
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// A table's changes merged into its rows by id (`TableStorage.merge(count:id:row:into:)`,
/// held25) leave exactly the rows that applying each change in turn leaves: random tables,
/// random puts and removals with ids in any order (going back, repeated), for every table's
/// row shape; through the table's own paths too (changes held aside and applied as it is
/// read, changes to a read table, the rows after an id).
@Suite struct TableStorageMergeTests {
  /// The rows a model of the table holds after `changes` in turn (a put sets its id's row,
  /// a removal takes it out), as each row's JSON line: what the merge must leave.
  static func applyingInTurn<Codec: StoreTableCodec>(
    _ codec: Codec.Type, _ rows: [Codec.Row], _ changes: [(id: Int, row: Codec.Row?)],
    above: Int = .min
  ) -> [String] {
    var model: [Int: Codec.Row] = [:]
    for row in rows { model[Codec.id(of: row)] = row }
    for change in changes { model[change.id] = change.row }
    return lines(codec, model.keys.sorted().filter { $0 > above }.map { model[$0]! })
  }

  /// Each row's JSON line, in order.
  static func lines<Codec: StoreTableCodec>(_ codec: Codec.Type, _ rows: [Codec.Row]) -> [String] {
    rows.map { row in
      var writer = JSONWriter()
      Codec.encode(row, into: &writer)
      return String(decoding: writer.bytes, as: UTF8.self)
    }
  }

  /// An entry whose weight and note tell one put of its id from another.
  static func entry(_ id: Int, _ random: inout SeededGenerator) -> Entry {
    let base = sampleEntry(
      id, kilograms: 50 + Double(Int.random(in: 0...9_999, using: &random)) / 100)
    return Entry(
      id: id, instant: base.instant, kilograms: base.kilograms, origin: base.origin,
      source: base.source, note: Bool.random(using: &random) ? "put \(id)" : nil,
      healthUUID: base.healthUUID)
  }

  /// A Health record of any kind (sample, workout, correlation, deletion) at position `id`.
  static func record(_ id: Int, _ random: inout SeededGenerator) -> HealthRecord {
    HealthSQLiteRowPartsTests.record(&random, position: Int64(id))
  }

  /// The shapes of changes: ids anywhere, going back (a file numbered backwards), after
  /// the rows in order (an import's: appended), or a few (applied in turn).
  enum Shape: CaseIterable {
    case anywhere, goingBack, afterTheRows, few
  }

  /// Random rows (ids increasing, with gaps) and random changes of `shape`.
  static func table<Codec: StoreTableCodec>(
    _ codec: Codec.Type, shape: Shape, _ random: inout SeededGenerator,
    row make: (Int, inout SeededGenerator) -> Codec.Row
  ) -> (rows: [Codec.Row], changes: [(id: Int, row: Codec.Row?)]) {
    let span = Int.random(in: 1...600, using: &random)
    let rows = (1...span).filter { _ in Int.random(in: 0..<3, using: &random) > 0 }.map {
      make($0, &random)
    }
    let count =
      shape == .few
      ? Int.random(in: 0...TableStorage<Codec>.fewChanges, using: &random)
      : Int.random(in: (TableStorage<Codec>.fewChanges + 1)...500, using: &random)
    var changes: [(id: Int, row: Codec.Row?)] = []
    var next = span + 1 + Int.random(in: 0...3, using: &random)
    for index in 0..<count {
      let id: Int
      switch shape {
      case .anywhere, .few: id = Int.random(in: 1...(span + 50), using: &random)
      case .goingBack:
        // From above the last row down to the first, among the rows, an id now and then twice.
        id = max(1, (span + 50) * (count - index) / count - Int.random(in: 0...1, using: &random))
      case .afterTheRows:
        id = next
        next += Int.random(in: 1...3, using: &random)
      }
      let removes = shape != .afterTheRows && Int.random(in: 0..<5, using: &random) == 0
      changes.append((id, removes ? nil : make(id, &random)))
    }
    return (rows, changes)
  }

  /// `merge` against the model, for one codec.
  static func expectMergeIsApplyingInTurn<Codec: StoreTableCodec>(
    _ codec: Codec.Type, seed: UInt64, row make: (Int, inout SeededGenerator) -> Codec.Row
  ) {
    var random = SeededGenerator(seed: seed)
    for shape in Shape.allCases {
      for round in 0..<8 {
        let (rows, changes) = table(codec, shape: shape, &random, row: make)
        var merged = rows
        TableStorage<Codec>.merge(
          count: changes.count, id: { changes[$0].id }, row: { changes[$0].row }, into: &merged)
        #expect(
          lines(codec, merged) == applyingInTurn(codec, rows, changes),
          "\(Codec.tableName), seed \(seed), \(shape), round \(round)")
      }
    }
  }

  @Test(arguments: 1...6)
  func aMergeLeavesWhatEachChangeInTurnLeaves(seed: UInt64) {
    Self.expectMergeIsApplyingInTurn(EntryCodec.self, seed: seed, row: Self.entry)
    Self.expectMergeIsApplyingInTurn(HealthRecordCodec.self, seed: seed, row: Self.record)
    Self.expectMergeIsApplyingInTurn(HealthSyncIndexCodec.self, seed: seed, row: Self.record)
  }

  /// One call to a table: puts (one change each, or a run), removals of ids, or of runs.
  enum Call<Row> {
    case puts([Row])
    case run([Row])
    case removeIDs([Int])
    case removeRuns([ClosedRange<Int>])
  }

  /// Random calls of changes of every shape, and the changes they make in turn.
  static func calls<Codec: StoreTableCodec>(
    _ codec: Codec.Type, span: Int, _ random: inout SeededGenerator,
    row make: (Int, inout SeededGenerator) -> Codec.Row
  ) -> (calls: [Call<Codec.Row>], changes: [(id: Int, row: Codec.Row?)]) {
    var calls: [Call<Codec.Row>] = []
    var changes: [(id: Int, row: Codec.Row?)] = []
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      let shape = Shape.allCases.randomElement(using: &random)!
      var (_, some) = table(codec, shape: shape, &random, row: make)
      switch Int.random(in: 0..<4, using: &random) {
      case 0, 1:
        some = some.filter { $0.row != nil }
        let rows = some.map { $0.row! }
        calls.append(Bool.random(using: &random) ? .puts(rows) : .run(rows))
        changes += some
      case 2:
        let ids = some.map(\.id)
        calls.append(.removeIDs(ids))
        changes += ids.map { ($0, nil) }
      default:
        let runs = (0..<Int.random(in: 1...4, using: &random)).map { _ in
          let low = Int.random(in: 1...(span + 50), using: &random)
          return low...(low + Int.random(in: 0...40, using: &random))
        }
        calls.append(.removeRuns(runs))
        for run in runs { changes += run.map { ($0, nil) } }
      }
    }
    return (calls, changes)
  }

  /// Makes `calls` of `table` at sequences from 2.
  static func apply<Codec: StoreTableCodec>(
    _ calls: [Call<Codec.Row>], to table: TableStorage<Codec>
  ) {
    for (offset, call) in calls.enumerated() {
      let sequence = offset + 2
      switch call {
      case .puts(let rows):
        let changes = rows.map { StoreChange.put(StoreRow(Codec.self, $0)) }
        table.apply(puts: changes[...], sequence: sequence)
      case .run(let rows): table.apply(run: StoreRowRun(Codec.self, rows), sequence: sequence)
      case .removeIDs(let ids): table.apply(removeIDs: ids, sequence: sequence)
      case .removeRuns(let runs):
        table.apply(removeRuns: runs.map(IDStepRun.init), sequence: sequence)
      }
    }
  }

  /// The table's paths against the model, for one codec: its file of random rows read
  /// after the calls (the changes held aside, then applied), read before them, and its rows
  /// after an id read after them (the file's end, the changes above the id applied).
  static func expectTableIsApplyingInTurn<Codec: StoreTableCodec>(
    _ codec: Codec.Type, seed: UInt64, row make: (Int, inout SeededGenerator) -> Codec.Row
  ) throws {
    var random = SeededGenerator(seed: seed)
    for round in 0..<6 {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      let (rows, _) = table(codec, shape: .anywhere, &random, row: make)
      let written = TableStorage<Codec>(empty: true)
      written.apply(run: StoreRowRun(Codec.self, rows), sequence: 1)
      try written.writeSnapshot(directory: directory.path, sequence: 1)
      let span = rows.last.map(Codec.id(of:)) ?? 1
      let (calls, changes) = Self.calls(codec, span: span, &random, row: make)
      let expected = applyingInTurn(codec, rows, changes)
      let label = "\(Codec.tableName), seed \(seed), round \(round)"

      let held = TableStorage<Codec>(empty: false)
      try held.readHeader(directory: directory.path)
      apply(calls, to: held)
      try held.load(directory: directory.path)
      #expect(lines(codec, held.rows ?? []) == expected, "read after: \(label)")

      let read = TableStorage<Codec>(empty: false)
      try read.readHeader(directory: directory.path)
      try read.load(directory: directory.path)
      apply(calls, to: read)
      #expect(lines(codec, read.rows ?? []) == expected, "read before: \(label)")

      let pivot = Int.random(in: 0...(span + 20), using: &random)
      let tail = TableStorage<Codec>(empty: false)
      try tail.readHeader(directory: directory.path)
      apply(calls, to: tail)
      let after = try tail.rows(after: pivot, directory: directory.path)
      #expect(
        lines(codec, after) == applyingInTurn(codec, rows, changes, above: pivot),
        "rows after \(pivot): \(label)")
    }
  }

  @Test(arguments: 1...4)
  func aTableLeavesWhatEachChangeInTurnLeaves(seed: UInt64) throws {
    try Self.expectTableIsApplyingInTurn(EntryCodec.self, seed: seed, row: Self.entry)
    try Self.expectTableIsApplyingInTurn(HealthRecordCodec.self, seed: seed, row: Self.record)
  }
}
