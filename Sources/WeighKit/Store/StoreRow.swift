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
  /// the array of a run (`StoreRow.puts(_:_:)`).
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

  /// A put of each element of `rows`, the rows of one run all sharing one object that holds
  /// the array: an import's million new entries are not boxed one by one, and a table that
  /// has no rows yet takes the array itself when the run is put in order
  /// (`TableStorage.apply(puts:sequence:)`), so the entries are held once while the store
  /// commits them, not twice.
  static func puts<Codec: StoreTableCodec>(_ codec: Codec.Type, _ rows: [Codec.Row])
    -> [StoreChange]
  {
    let box = StoreRowRunBox<Codec>(rows)
    let table = Codec.tableName
    var puts: [StoreChange] = []
    puts.reserveCapacity(rows.count)
    for index in rows.indices {
      let id = Codec.id(of: rows[index])
      puts.append(.put(StoreRow(table: table, id: id, content: box, index: index)))
    }
    return puts
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
  func encode(at index: Int, into writer: inout JSONWriter)
  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError?
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

  func encode(at index: Int, into writer: inout JSONWriter) { Codec.encode(row, into: &writer) }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    Self.readBackProblem(bytes)
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

/// The rows of a run of puts of `Codec`'s table (`StoreRow.puts(_:_:)`), in one array that
/// every put of the run points into.
final class StoreRowRunBox<Codec: StoreTableCodec>: StoreRowContent {
  let rows: [Codec.Row]

  init(_ rows: [Codec.Row]) { self.rows = rows }

  var holdsARowOfItsOwn: Bool { false }

  func value(at index: Int) -> any Sendable { rows[index] }

  func encode(at index: Int, into writer: inout JSONWriter) {
    Codec.encode(rows[index], into: &writer)
  }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    StoreRowBox<Codec>.readBackProblem(bytes)
  }
}

/// The content of a put kept without its value (`StoreRow.withoutValue`): never encoded,
/// since the journal copies the bytes the put was encoded to when it was committed.
final class RowWithoutValue: StoreRowContent {
  static let shared = RowWithoutValue()

  var holdsARowOfItsOwn: Bool { false }

  func value(at index: Int) -> any Sendable { Never?.none }

  func encode(at index: Int, into writer: inout JSONWriter) {
    preconditionFailure("a put kept without its value is written from its encoded bytes")
  }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? { nil }
}
