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

/// Ids as runs of consecutive numbers, in a given order (each run by increasing id): what a
/// `removeRun` removes. Iterating gives every id, run after run.
public struct IDRuns: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
  /// The runs, in their order.
  public private(set) var runs: [ClosedRange<Int>]

  public init(_ runs: [ClosedRange<Int>] = []) { self.runs = runs }

  /// Adds `id` after the others: to the last run when it is the id after it.
  mutating func append(_ id: Int) {
    if let last = runs.last, last.upperBound < .max, last.upperBound + 1 == id {
      runs[runs.count - 1] = last.lowerBound...id
    } else {
      runs.append(id...id)
    }
  }

  public init(arrayLiteral runs: ClosedRange<Int>...) { self.runs = runs }

  /// Every id, run after run.
  public func makeIterator() -> FlattenSequence<[ClosedRange<Int>]>.Iterator {
    runs.joined().makeIterator()
  }

  /// How many ids there are.
  public var underestimatedCount: Int { runs.reduce(0) { $0 + $1.count } }
}
