extension StoreChange {
  /// Why committing `changes` would leave a store that does not load again, or nil: each
  /// row is written and read back through its codec, and each document is checked as
  /// loading checks it (`StoreDocuments`). A value that entered through some path that did
  /// not check its range is refused here, before it reaches the disk, instead of making
  /// every later command exit 65.
  ///
  /// - Complexity: O(size of the changes).
  static func problem(in changes: [StoreChange]) -> StoreError? {
    for change in changes {
      switch change {
      case .put(let row):
        if let error = row.readBackProblem() {
          return StoreError(
            .invalidChange,
            message: "row \(row.id) of \(row.table) would not load again: \(error.message)")
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
