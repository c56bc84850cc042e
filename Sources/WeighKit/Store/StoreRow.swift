/// A row of some table, with what the store needs to journal it.
public struct StoreRow: Sendable {
  /// The table the row belongs to.
  public let table: String
  /// The row's id.
  public let id: Int
  /// The row with its codec, in one object: encoding it, reading it back and handing it to
  /// its table go through the codec statically, with no cast of the row's value.
  let content: any StoreRowContent

  /// The row itself, of the codec's `Row` type.
  public var value: any Sendable { content.value }

  /// Wraps `row` of the table that `codec` describes.
  public init<Codec: StoreTableCodec>(_ codec: Codec.Type, _ row: Codec.Row) {
    table = Codec.tableName
    id = Codec.id(of: row)
    content = StoreRowBox<Codec>(row)
  }

  private init(table: String, id: Int, content: any StoreRowContent) {
    self.table = table
    self.id = id
    self.content = content
  }

  /// The row's table and id without its value: what a command's transaction keeps of a put
  /// once the put is applied and its bytes are in `EncodedRows`, from which the journal
  /// record is written; so a command that adds a million entries does not hold each twice.
  var withoutValue: StoreRow {
    StoreRow(table: table, id: id, content: RowWithoutValue.shared)
  }

  /// The row, when it is a row of `codec`'s table.
  public func value<Codec: StoreTableCodec>(_ codec: Codec.Type) -> Codec.Row? {
    // A comparison of metadata, not a dynamic cast (the commit path calls this per row).
    guard type(of: content) == StoreRowBox<Codec>.self else { return nil }
    return unsafeDowncast(content, to: StoreRowBox<Codec>.self).row
  }

  /// Writes the row as its codec does.
  func encode(into writer: inout JSONWriter) { content.encode(into: &writer) }

  /// Why `bytes`, the row as `encode` wrote it, would not read back through its codec, or nil
  /// (`StoreChange.problem(in:rows:)`).
  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    content.readBackProblem(bytes)
  }
}

/// A row together with its codec (`StoreRowBox`).
protocol StoreRowContent: AnyObject, Sendable {
  var value: any Sendable { get }
  func encode(into writer: inout JSONWriter)
  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError?
}

/// One row of `Codec`'s table. A class, so that a `StoreRow` holds one reference (not a boxed
/// value and two closures) and its table takes the row back with a class cast.
final class StoreRowBox<Codec: StoreTableCodec>: StoreRowContent {
  let row: Codec.Row

  init(_ row: Codec.Row) { self.row = row }

  var value: any Sendable { row }

  func encode(into writer: inout JSONWriter) { Codec.encode(row, into: &writer) }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? {
    var reader = JSONReader(bytes: bytes)
    do throws(JSONSyntaxError) {
      _ = try Codec.decode(from: &reader)
      return nil
    } catch {
      return error
    }
  }
}

/// The content of a put kept without its value (`StoreRow.withoutValue`): never encoded,
/// since the journal copies the bytes the put was encoded to when it was committed.
final class RowWithoutValue: StoreRowContent {
  static let shared = RowWithoutValue()

  var value: any Sendable { Never?.none }

  func encode(into writer: inout JSONWriter) {
    preconditionFailure("a put kept without its value is written from its encoded bytes")
  }

  func readBackProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError? { nil }
}
