/// One change inside a transaction given to `Store.commit`.
public enum StoreChange: Sendable {
  /// Adds a row, or replaces the row with the same id.
  case put(StoreRow)
  /// Removes the row with this id from a table, if it is there.
  case remove(table: String, id: Int)
  /// Sets a small named document (`settings`, `app`, `health`).
  case setDocument(name: String, value: JSONValue)
  /// Removes a named document.
  case removeDocument(name: String)

  /// Adds or replaces an entry of the log.
  public static func putEntry(_ entry: Entry) -> StoreChange {
    .put(StoreRow(EntryCodec.self, entry))
  }

  /// Adds or replaces each of `entries`; the puts share one array instead of holding an
  /// entry each (`StoreRow.puts(_:_:)`): what an import of many entries commits.
  public static func putEntries(_ entries: [Entry]) -> [StoreChange] {
    StoreRow.puts(EntryCodec.self, entries)
  }

  /// Removes an entry of the log.
  public static func removeEntry(id: Int) -> StoreChange {
    .remove(table: EntryCodec.tableName, id: id)
  }

  /// The change as a command's transaction keeps it once applied: a put without its row's
  /// value (`StoreRow.withoutValue`).
  var withoutRowValue: StoreChange {
    if case .put(let row) = self { .put(row.withoutValue) } else { self }
  }

  /// False for a put that holds its row in an object of its own (`StoreRow.init`); true
  /// for the puts of a run (`StoreRow.puts(_:_:)`) and every other change.
  var holdsNoRowOfItsOwn: Bool {
    if case .put(let row) = self { !row.content.holdsARowOfItsOwn } else { true }
  }

  /// True for `setDocument` and `removeDocument`.
  var isDocumentChange: Bool {
    switch self {
    case .setDocument, .removeDocument: true
    case .put, .remove: false
    }
  }
}
