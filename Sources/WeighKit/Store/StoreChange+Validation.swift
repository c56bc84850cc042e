extension StoreChange {
  /// Why committing `changes` would leave a store that does not load again, or nil: each
  /// row is encoded into `rows` (the bytes its journal record will hold) and read back
  /// from those bytes through its codec, and each document is checked as loading checks it
  /// (`StoreDocuments`). A value that entered through some path that did not check its
  /// range is refused here, before it reaches the disk, instead of making every later
  /// command exit 65.
  ///
  /// When it returns a problem, `rows` may hold some of the rows of `changes`: the caller
  /// cuts it back.
  ///
  /// - Complexity: O(size of the changes).
  static func problem(in changes: [StoreChange], rows: inout EncodedRows) -> StoreError? {
    for change in changes {
      switch change {
      case .put(let row):
        let range = rows.append(row)
        if let error = rows.withBytes(range, row.readBackProblem) {
          return StoreError(
            .invalidChange,
            message: "row \(row.id) of \(row.table) would not load again: \(error.message)")
        }
        if rows.wroteNonFiniteNumber {
          return StoreError(
            .invalidChange,
            message: "row \(row.id) of \(row.table) holds a number that is not finite (NaN "
              + "or infinity), which cannot be stored")
        }
      case .setDocument(let name, let value):
        do throws(DocumentProblem) { try StoreDocuments.validate(name: name, value: value) } catch {
          return StoreError(
            .invalidChange,
            message: "the document \"\(name)\" would not load again: \(error.message)")
        }
      case .remove, .removeDocument:
        continue
      }
    }
    return nil
  }
}
