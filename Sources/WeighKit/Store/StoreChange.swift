/// One change inside a transaction given to `Store.commit`.
public enum StoreChange: Sendable {
  /// Adds a row, or replaces the row with the same id.
  case put(StoreRow)
  /// Adds or replaces each row of the run, in order, as one `put` per row would: the
  /// journal holds the same record (`StoreRowRun`).
  case putRun(StoreRowRun)
  /// Removes the row with this id from a table, if it is there.
  case remove(table: String, id: Int)
  /// Removes the rows with the ids of `ids` from a table, those that are there, as one
  /// `remove` per id in the order of `ids` would: the journal holds the same record. An
  /// undo of an import of a million entries is one of these, not a million changes.
  case removeRun(table: String, ids: IDRuns)
  /// Sets a small named document (`settings`, `app`, `health`).
  case setDocument(name: String, value: JSONValue)
  /// Removes a named document.
  case removeDocument(name: String)

  /// Adds or replaces an entry of the log.
  public static func putEntry(_ entry: Entry) -> StoreChange {
    .put(StoreRow(EntryCodec.self, entry))
  }

  /// Adds or replaces each of `entries`, in one change that holds their array
  /// (`StoreRowRun`) instead of one change per entry: what an import of many entries
  /// commits. No change for no entries.
  public static func putEntries(_ entries: [Entry]) -> [StoreChange] {
    entries.isEmpty ? [] : [.putRun(StoreRowRun(EntryCodec.self, entries))]
  }

  /// `changes` with each run of puts (`putRun`) replaced by one `put` per row: for code
  /// that looks at each put (an undo step's).
  static func expandingRuns(_ changes: [StoreChange]) -> [StoreChange] {
    guard changes.contains(where: \.isRun) else { return changes }
    var expanded: [StoreChange] = []
    for change in changes {
      if case .putRun(let run) = change {
        for index in 0..<run.count { expanded.append(.put(run.row(at: index))) }
      } else {
        expanded.append(change)
      }
    }
    return expanded
  }

  /// True for a run whose rows were streamed already and are not held
  /// (`StoreRowRun.isStreamed`).
  var isStreamedRun: Bool {
    if case .putRun(let run) = self { run.isStreamed } else { false }
  }

  /// True for `putRun`.
  var isRun: Bool {
    if case .putRun = self { true } else { false }
  }

  /// Removes an entry of the log.
  public static func removeEntry(id: Int) -> StoreChange {
    .remove(table: EntryCodec.tableName, id: id)
  }

  /// `changes` with each run of removals (`removeRun`) replaced by one `remove` per id: for
  /// tests that compare an undo of runs with the undo of one removal per entry.
  static func expandingRemovals(_ changes: [StoreChange]) -> [StoreChange] {
    var expanded: [StoreChange] = []
    for change in changes {
      if case .removeRun(let table, let ids) = change {
        expanded += ids.lazy.map { StoreChange.remove(table: table, id: $0) }
      } else {
        expanded.append(change)
      }
    }
    return expanded
  }

  /// The change as a command's transaction keeps it once applied: a put without its row's
  /// value (`StoreRow.withoutValue`).
  var withoutRowValue: StoreChange {
    if case .put(let row) = self { .put(row.withoutValue) } else { self }
  }

  /// False for a put that holds its row in an object of its own (`StoreRow.init`); true
  /// for a run (`putRun`, whose array a table may share) and every other change.
  var holdsNoRowOfItsOwn: Bool {
    if case .put(let row) = self { !row.content.holdsARowOfItsOwn } else { true }
  }

  /// The number of rows the change puts: 1 for `put`, the run's count for `putRun`.
  var putCount: Int {
    switch self {
    case .put: 1
    case .putRun(let run): run.count
    case .remove, .removeRun, .setDocument, .removeDocument: 0
    }
  }

  /// True for `setDocument` and `removeDocument`.
  var isDocumentChange: Bool {
    switch self {
    case .setDocument, .removeDocument: true
    case .put, .putRun, .remove, .removeRun: false
    }
  }
}

/// Ids as runs a step apart (`IDStepRun`), in a given order (each run by increasing id): what
/// a `removeRun` removes. Iterating gives every id, run after run. Ids appended one by one in
/// increasing order make at most as many runs as they have runs of consecutive ids: every
/// other number is one run (own25).
public struct IDRuns: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
  /// The runs, in their order.
  public private(set) var runs: [IDStepRun] = []

  /// The ids of `ranges`, in their order.
  public init(_ ranges: [ClosedRange<Int>] = []) {
    for range in ranges { append(range) }
  }

  public init(arrayLiteral ranges: ClosedRange<Int>...) { self.init(ranges) }

  /// Adds `id` after the others: to the last run when it continues it. A run of two ids
  /// whose step is not 1 gives its second to a run of consecutive ids that `id` continues,
  /// so that consecutive ids after one alone stay one run (1, 5, 6, 7: 1 and 5…7).
  mutating func append(_ id: Int) {
    guard let last = runs.last else { return runs.append(IDStepRun(id)) }
    if let longer = last.extended(by: id) {
      runs[runs.count - 1] = longer
    } else if last.count == 2, last.step != 1, last.upperBound < .max, last.upperBound + 1 == id {
      runs[runs.count - 1] = IDStepRun(last.lowerBound)
      runs.append(IDStepRun(last.upperBound...id))
    } else {
      runs.append(IDStepRun(id))
    }
  }

  /// Adds the ids of `range` after the others, as appending each in turn would.
  mutating func append(_ range: ClosedRange<Int>) {
    append(range.lowerBound)
    guard range.lowerBound < range.upperBound else { return }
    append(range.lowerBound + 1)
    // The last run is the one id `lowerBound + 1` or consecutive ids up to it: the rest
    // continue it.
    guard let last = runs.last else { return }
    runs[runs.count - 1] = IDStepRun(last.lowerBound...range.upperBound)
  }

  /// Every id, run after run.
  public func makeIterator() -> FlattenSequence<[IDStepRun]>.Iterator {
    runs.joined().makeIterator()
  }

  /// How many ids there are.
  public var underestimatedCount: Int { runs.reduce(0) { $0 + $1.count } }
}
