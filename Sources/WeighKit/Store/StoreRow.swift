/// A row of some table, with what the store needs to journal it.
public struct StoreRow: Sendable {
  /// The table the row belongs to.
  public let table: String
  /// The row's id.
  public let id: Int
  /// The row with its codec, in one object: encoding it, reading it back and handing it to
  /// its table go through the codec statically, with no cast of the row's value.
  let content: any StoreRowContent
  /// The row's place among the rows `content` holds: 0 for a row of its own, its index in
  /// the array of a run (`StoreRowRun`).
  let index: Int

  /// The row itself, of the codec's `Row` type.
  public var value: any Sendable { content.value(at: index) }

  /// Wraps `row` of the table that `codec` describes.
  public init<Codec: StoreTableCodec>(_ codec: Codec.Type, _ row: Codec.Row) {
    table = Codec.tableName
    id = Codec.id(of: row)
    content = StoreRowBox<Codec>(row)
    index = 0
  }

  private init(table: String, id: Int, content: any StoreRowContent, index: Int) {
    self.table = table
    self.id = id
    self.content = content
    self.index = index
  }

  /// The put of row `index` of `run`.
  init(_ run: StoreRowRun, at index: Int) {
    self.init(table: run.table, id: run.content.id(at: index), content: run.content, index: index)
  }

  /// The row's table and id without its value: what a command's transaction keeps of a put
  /// once the put is applied and its bytes are in `EncodedRows`, from which the journal
  /// record is written; so a command that adds a million entries does not hold each twice.
  var withoutValue: StoreRow {
    StoreRow(table: table, id: id, content: RowWithoutValue.shared, index: 0)
  }

  /// The row, when it is a row of `codec`'s table.
  public func value<Codec: StoreTableCodec>(_ codec: Codec.Type) -> Codec.Row? {
    // A comparison of metadata, not a dynamic cast (the commit path calls this per row).
    if type(of: content) == StoreRowBox<Codec>.self {
      return unsafeDowncast(content, to: StoreRowBox<Codec>.self).row
    }
    guard type(of: content) == StoreRowRunBox<Codec>.self else { return nil }
    return unsafeDowncast(content, to: StoreRowRunBox<Codec>.self).rows[index]
  }

  /// Writes the row as its codec does.
  func encode(into writer: inout JSONWriter) { content.encode(at: index, into: &writer) }

  /// Why `bytes`, the row as `encode` wrote it, would not read back through its codec, or nil
  /// (`StoreChange.problem(in:rows:)`).
  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    content.readBackProblem(bytes)
  }
}

/// A row together with its codec (`StoreRowBox`).
protocol StoreRowContent: AnyObject, Sendable {
  /// The row at `index` (always 0 but for a run).
  func value(at index: Int) -> any Sendable
  /// The id of the row at `index`.
  func id(at index: Int) -> Int
  func encode(at index: Int, into writer: inout JSONWriter)
  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError?
  /// The shape of the row at `index` (`StoreTableCodec.readBackShape(of:)`), or nil.
  func readBackShape(at index: Int) -> ReadBackShapes.Key?
  /// Writes the row at `index` and returns its shape (`StoreTableCodec.encodeRow`).
  func encodeRow(at index: Int, into writer: inout JSONWriter) -> ReadBackShapes.Key?
  /// True when the object holds one row, its own (not a run's array, shared).
  var holdsARowOfItsOwn: Bool { get }
}

/// One row of `Codec`'s table. A class, so that a `StoreRow` holds one reference (not a boxed
/// value and two closures) and its table takes the row back with a class cast.
final class StoreRowBox<Codec: StoreTableCodec>: StoreRowContent {
  let row: Codec.Row

  init(_ row: Codec.Row) { self.row = row }

  var holdsARowOfItsOwn: Bool { true }

  func value(at index: Int) -> any Sendable { row }

  func id(at index: Int) -> Int { Codec.id(of: row) }

  func encode(at index: Int, into writer: inout JSONWriter) { Codec.encode(row, into: &writer) }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    Self.readBackProblem(bytes)
  }

  func readBackShape(at index: Int) -> ReadBackShapes.Key? {
    Self.shape(of: row)
  }

  func encodeRow(at index: Int, into writer: inout JSONWriter) -> ReadBackShapes.Key? {
    encode(at: index, into: &writer)
    return readBackShape(at: index)
  }

  /// The key of `row`'s shape, or nil.
  static func shape(of row: Codec.Row) -> ReadBackShapes.Key? {
    guard let shape = Codec.readBackShape(of: row) else { return nil }
    return ReadBackShapes.Key(codec: ObjectIdentifier(Codec.self), shape: shape)
  }

  /// Why `bytes` do not read back as a row of `Codec`'s table, or nil.
  static func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    var reader = JSONReader(bytes: bytes)
    do throws(JSONSyntaxError) {
      _ = try Codec.decode(from: &reader)
      return nil
    } catch {
      return error
    }
  }
}

/// The rows of a run of puts of `Codec`'s table (`StoreRowRun`), in one array.
final class StoreRowRunBox<Codec: StoreTableCodec>: StoreRowContent {
  let rows: [Codec.Row]

  init(_ rows: [Codec.Row]) { self.rows = rows }

  var holdsARowOfItsOwn: Bool { false }

  func value(at index: Int) -> any Sendable { rows[index] }

  // The row is handed on in place, through the array's buffer: `rows[index]` copied it
  // (this code is generic over the codec, not specialized), each of its strings retained
  // and released, several times per row of an import.
  func id(at index: Int) -> Int { rows.withUnsafeBufferPointer { Codec.id(of: $0[index]) } }

  func encode(at index: Int, into writer: inout JSONWriter) {
    rows.withUnsafeBufferPointer { Codec.encode($0[index], into: &writer) }
  }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    StoreRowBox<Codec>.readBackProblem(bytes)
  }

  func readBackShape(at index: Int) -> ReadBackShapes.Key? {
    // Not through `StoreRowBox<Codec>.shape(of:)`: naming that type here looked up its
    // metadata for every row (a third of the check of an import's row under callgrind).
    guard let shape = rows.withUnsafeBufferPointer({ Codec.readBackShape(of: $0[index]) })
    else { return nil }
    return ReadBackShapes.Key(codec: ObjectIdentifier(Codec.self), shape: shape)
  }

  func encodeRow(at index: Int, into writer: inout JSONWriter) -> ReadBackShapes.Key? {
    guard
      let shape = rows.withUnsafeBufferPointer({
        Codec.encodeRow(at: index, of: $0, into: &writer)
      })
    else { return nil }
    return ReadBackShapes.Key(codec: ObjectIdentifier(Codec.self), shape: shape)
  }
}

/// The content of puts whose rows are not held, and so never encoded again: they hold no
/// value, nothing to read back, and stop the process if asked to write (`whyNotWritten`).
protocol RowlessContent: StoreRowContent {
  /// Why the rows are never written from this content.
  var whyNotWritten: String { get }
}

extension RowlessContent {
  var holdsARowOfItsOwn: Bool { false }

  func value(at index: Int) -> any Sendable { Never?.none }

  func encode(at index: Int, into writer: inout JSONWriter) { preconditionFailure(whyNotWritten) }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? { nil }

  func readBackShape(at index: Int) -> ReadBackShapes.Key? { nil }

  func encodeRow(at index: Int, into writer: inout JSONWriter) -> ReadBackShapes.Key? {
    preconditionFailure(whyNotWritten)
  }
}

/// The content of a run whose rows were streamed into the journal record and the table's
/// file as they were read (`Store.streamRun`), and are not held: increasing ids, in runs a
/// step apart (`StreamedRunIDs`). Never encoded again: the record and the file hold
/// the rows already.
final class StreamedRunContent: RowlessContent {
  let ids: StreamedRunIDs

  init(ids: StreamedRunIDs) { self.ids = ids }

  var whyNotWritten: String { "a streamed run's rows are in the journal already" }

  func id(at index: Int) -> Int { ids.id(at: index) }
}

/// The increasing ids of a streamed run, as runs a step apart (`IDRuns`): one for an export of
/// a log without deletions, one more for each gap a deletion left, one for rows numbered every
/// other number among the log's (24 bytes a run and 8 for its position, where the rows are
/// not held; as runs of consecutive ids, 1,000,000 such rows took 24 MB, own25).
struct StreamedRunIDs: Sendable, Equatable {
  /// The ids, as runs in increasing order.
  private(set) var runs = IDRuns()
  /// The position in the run of the first id of each of `runs.runs`.
  private var starts: [Int] = []
  /// How many ids.
  private(set) var count = 0

  /// No ids.
  init() {}

  /// The consecutive ids of `range`.
  init(_ range: ClosedRange<Int>) {
    runs = IDRuns([range])
    starts = [0]
    count = range.count
  }

  /// The first id, if any.
  var first: Int? { runs.runs.first?.lowerBound }

  /// The last id, if any.
  var last: Int? { runs.runs.last?.upperBound }

  /// Adds `id`, which is greater than `last`.
  mutating func append(_ id: Int) {
    let before = runs.runs.count
    runs.append(id)
    if runs.runs.count > before {
      // A new run of one id starts here; a run of two takes the last id of the one before.
      starts.append(runs.runs[before].count == 1 ? count : count - 1)
    }
    count += 1
  }

  /// The id at `index` (0 ..< count).
  ///
  /// - Complexity: O(log r) for r runs.
  func id(at index: Int) -> Int {
    // The last run starting at or before `index`.
    var (low, high) = (0, starts.count - 1)
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return runs.runs[low][index - starts[low]]
  }

  /// Whether both hold the same ids (the positions follow from the runs).
  static func == (a: StreamedRunIDs, b: StreamedRunIDs) -> Bool { a.runs == b.runs }
}

/// The content of a put kept without its value (`StoreRow.withoutValue`): never encoded,
/// since the journal copies the bytes the put was encoded to when it was committed.
final class RowWithoutValue: RowlessContent {
  static let shared = RowWithoutValue()

  var whyNotWritten: String { "a put kept without its value is written from its encoded bytes" }

  func id(at index: Int) -> Int { preconditionFailure("a put kept without its value has no row") }
}

/// Rows of one table put in one change (`StoreChange.putRun`): an import's entries, in one
/// array, as the transaction, the journal and the table see them, without a `StoreChange`
/// or a `StoreRow` per row (48 bytes each, a million of them for a million-row import). The
/// journal writes each row as the put of its own that it stands for, so the record's bytes
/// are those of one put per row; the table takes the array itself when it has no rows yet
/// and the ids increase (`TableStorage.apply(run:sequence:)`).
public struct StoreRowRun: Sendable {
  /// The table of every row.
  public let table: String
  /// The rows, with their codec.
  let content: any StoreRowContent
  /// The number of rows.
  public let count: Int
  /// True when each row's id is greater than the one before.
  let idsIncrease: Bool
  /// The smallest and the greatest id (0 and 0 for no rows).
  let smallestID: Int
  let largestID: Int

  /// The run of `rows` of the table `codec` describes.
  ///
  /// - Complexity: O(n), reading the ids once.
  init<Codec: StoreTableCodec>(_ codec: Codec.Type, _ rows: [Codec.Row]) {
    table = Codec.tableName
    content = StoreRowRunBox<Codec>(rows)
    count = rows.count
    var increasing = true
    var smallest = Int.max
    var largest = Int.min
    var previous = Int.min
    for index in rows.indices {
      let id = Codec.id(of: rows[index])
      if id <= previous { increasing = false }
      previous = id
      smallest = Swift.min(smallest, id)
      largest = Swift.max(largest, id)
    }
    idsIncrease = increasing
    smallestID = rows.isEmpty ? 0 : smallest
    largestID = rows.isEmpty ? 0 : largest
  }

  /// The run of rows of `table` with `ids`, streamed already (`StreamedRunContent`): its
  /// rows are not held.
  init(streamedInto table: String, ids: StreamedRunIDs) {
    self.table = table
    content = StreamedRunContent(ids: ids)
    count = ids.count
    idsIncrease = true
    smallestID = ids.first ?? 0
    largestID = ids.last ?? 0
  }

  /// True for a run whose rows were streamed and are not held (`values` is nil).
  var isStreamed: Bool { content is StreamedRunContent }

  /// The ids of a streamed run, as runs a step apart; nil for another run.
  var streamedIDs: IDRuns? { (content as? StreamedRunContent)?.ids.runs }

  /// The id of row `index`.
  func id(at index: Int) -> Int { content.id(at: index) }

  /// Row `index` as a put of its own would hold it.
  func row(at index: Int) -> StoreRow { StoreRow(self, at: index) }

  /// The rows, when they are rows of `codec`'s table: the run's own array, not a copy.
  public func values<Codec: StoreTableCodec>(_ codec: Codec.Type) -> [Codec.Row]? {
    guard type(of: content) == StoreRowRunBox<Codec>.self else { return nil }
    return unsafeDowncast(content, to: StoreRowRunBox<Codec>.self).rows
  }
}
