/// How one table of a store is written to and read from JSON. Adding a table to the store
/// (Health samples, deleted objects) is writing one of these and passing it to `Store.open`.
///
/// A table is kept in `<tableName>.json` as one row object per line, ordered by id, and its
/// changes travel through the journal as the same row objects.
public protocol StoreTableCodec: SendableMetatype {
  /// One row of the table.
  associatedtype Row: Sendable

  /// The table's name in the journal and its file name without `.json` (`entries`).
  static var tableName: String { get }
  /// The `format` written at the top of the table's file (`weigh-entries`).
  static var formatName: String { get }
  /// The highest format version this codec reads and the one it writes.
  static var formatVersion: Int { get }

  /// The row's unique, positive key; rows are kept in increasing id order.
  static func id(of row: Row) -> Int
  /// Writes the row as one compact JSON object, with no newline inside it.
  static func encode(_ row: Row, into writer: inout JSONWriter)
  /// Reads one row object written by `encode` (or by hand, in any member order).
  static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> Row

  /// What decides the steps `encode` takes for `row` (which members it writes, and in which
  /// form), as a number, when each of the row's own values passes the check `decode` makes
  /// of it; nil otherwise, or when the codec does not say. The store reads one row of each
  /// shape back through `decode` in a transaction, and every row without a shape
  /// (`StoreChange.problem(in:rows:shapes:)`).
  static func readBackShape(of row: Row) -> UInt64?
  /// Writes row `index` of `rows` as `encode` does and returns its `readBackShape`: what an
  /// import's run does for each of its rows, in one call on the row where it lies.
  static func encodeRow(
    at index: Int, of rows: UnsafeBufferPointer<Row>, into writer: inout JSONWriter
  ) -> UInt64?
}

extension StoreTableCodec {
  /// No shape: every row is read back.
  public static func readBackShape(of row: Row) -> UInt64? { nil }

  /// `encode`, then `readBackShape`.
  public static func encodeRow(
    at index: Int, of rows: UnsafeBufferPointer<Row>, into writer: inout JSONWriter
  ) -> UInt64? {
    encode(rows[index], into: &writer)
    return readBackShape(of: rows[index])
  }
}
