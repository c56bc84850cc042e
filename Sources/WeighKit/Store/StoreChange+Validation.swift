extension StoreChange {
  /// Why committing `changes` would leave a store that does not load again, or nil: each
  /// row is encoded into `rows` (the bytes its journal record will hold) and checked as
  /// `StoreRow.loadProblem` checks it (read back through its codec once per row shape in
  /// the transaction, `shapes`, its own values every time), and each document is checked
  /// as loading checks it (`StoreDocuments`). A value that entered through some path that
  /// did not check its range is refused here, before it reaches the disk, instead of making
  /// every later command exit 65.
  ///
  /// When it returns a problem, `rows` may hold some of the rows of `changes`: the caller
  /// cuts it back.
  ///
  /// - Parameter documents: false to leave the documents to `documentProblem(in:)`, which
  ///   a command's transaction asks once, of the values it writes (`Store.endBatch`).
  /// - Complexity: O(size of the changes).
  static func problem(
    in changes: [StoreChange], rows: inout EncodedRows, shapes: inout ReadBackShapes,
    documents: Bool = true
  ) -> StoreError? {
    for change in changes {
      switch change {
      case .put(let row):
        if let problem = putProblem(row, rows: &rows, shapes: &shapes) { return problem }
      case .putRun(let run):
        for index in 0..<run.count {
          if let problem = putProblem(run.row(at: index), rows: &rows, shapes: &shapes) {
            return problem
          }
        }
      case .setDocument(let name, let value):
        guard documents else { continue }
        if let problem = documentProblem(name: name, value: value) { return problem }
      case .remove, .removeRun, .removeDocument:
        continue
      }
    }
    return nil
  }

  /// Why a document that `changes` sets would not load again, or nil (`StoreDocuments`).
  ///
  /// - Complexity: O(size of the documents set).
  static func documentProblem(in changes: [StoreChange]) -> StoreError? {
    for case .setDocument(let name, let value) in changes {
      if let problem = documentProblem(name: name, value: value) { return problem }
    }
    return nil
  }

  private static func documentProblem(name: String, value: JSONValue) -> StoreError? {
    do throws(DocumentProblem) { try StoreDocuments.validate(name: name, value: value) } catch {
      return StoreError(
        .invalidChange,
        message: "the document \"\(name)\" would not load again: \(error.message)")
    }
    return nil
  }

  /// `problem(in:rows:shapes:)` with every row read back (tests).
  static func problem(in changes: [StoreChange], rows: inout EncodedRows) -> StoreError? {
    var shapes = ReadBackShapes()
    return problem(in: changes, rows: &rows, shapes: &shapes)
  }

  /// Encodes `row` into `rows` and checks it (`StoreRow.loadProblem`).
  private static func putProblem(
    _ row: StoreRow, rows: inout EncodedRows, shapes: inout ReadBackShapes
  ) -> StoreError? {
    let range = rows.append(row)
    return rows.withBytes(range) { row.loadProblem($0, shapes: &shapes) }
      ?? (rows.wroteNonFiniteNumber ? row.nonFiniteProblem : nil)
  }
}

/// The row shapes (`StoreTableCodec.readBackShape(of:)`) whose encoding was read back
/// through its codec in the running transaction: another row of one of these shapes is
/// written by the same steps of its encoder and is not read back again.
struct ReadBackShapes {
  private var read: Set<Key> = []
  /// The shape last found or added: an import's rows are nearly all of one shape, which is
  /// then compared, not hashed, for each row.
  private var last: Key?

  struct Key: Hashable {
    var codec: ObjectIdentifier
    var shape: UInt64
  }

  /// The number of shapes read back (tests).
  var count: Int { read.count }

  mutating func contains(_ key: Key) -> Bool {
    if key == last { return true }
    guard read.contains(key) else { return false }
    last = key
    return true
  }

  mutating func insert(_ key: Key) {
    read.insert(key)
    last = key
  }

  /// Forgets every shape: the next transaction reads each back again.
  mutating func removeAll() {
    if !read.isEmpty { read.removeAll() }
    last = nil
  }
}

extension StoreRow {
  /// Why `bytes`, the row as `encode` wrote it, would not load again, or nil: read back
  /// through its codec (`readBackProblem`) unless its codec gives it a shape
  /// (`StoreTableCodec.readBackShape(of:)`, which checks the row's own values as the
  /// decoder would) and a row of that shape was read back in this transaction (`shapes`).
  func loadProblem(_ bytes: UnsafeBufferPointer<UInt8>, shapes: inout ReadBackShapes)
    -> StoreError?
  {
    let shape = content.readBackShape(at: index)
    if let shape, shapes.contains(shape) { return nil }
    if let error = readBackProblem(bytes) {
      return StoreError(
        .invalidChange, message: "row \(id) of \(table) would not load again: \(error.message)")
    }
    if let shape { shapes.insert(shape) }
    return nil
  }

  /// The error for a row that holds a number that is not finite.
  var nonFiniteProblem: StoreError {
    StoreError(
      .invalidChange,
      message: "row \(id) of \(table) holds a number that is not finite (NaN or infinity), "
        + "which cannot be stored")
  }
}
