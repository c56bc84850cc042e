/// A row of some table, with what the store needs to journal it.
public struct StoreRow: Sendable {
  /// The table the row belongs to.
  public let table: String
  /// The row's id.
  public let id: Int
  /// The row itself, of the codec's `Row` type.
  public let value: any Sendable
  let encode: @Sendable (inout JSONWriter) -> Void
  /// Why the row would not read back from the store, or nil (`StoreChange.problem(in:)`).
  let readBackProblem: @Sendable () -> JSONSyntaxError?

  /// Wraps `row` of the table that `codec` describes.
  public init<Codec: StoreTableCodec>(_ codec: Codec.Type, _ row: Codec.Row) {
    table = Codec.tableName
    id = Codec.id(of: row)
    value = row
    encode = { writer in Codec.encode(row, into: &writer) }
    readBackProblem = {
      var writer = JSONWriter()
      Codec.encode(row, into: &writer)
      do throws(JSONSyntaxError) {
        _ = try JSONReader.withReader(over: writer.bytes) { (reader) throws(JSONSyntaxError) in
          try Codec.decode(from: &reader)
        }
        return nil
      } catch {
        return error
      }
    }
  }
}
