// checked-file: byte counts of a record's elements, each bounded by the record's length.

/// The length of a journal record counted without encoding its removals: the migration of
/// Health's tables writes a record of a removal per row into `pending_journal`, whose blob is
/// made at its length first and filled after (`HealthSQLiteStorage.RepairWriting.commit(
/// pendingSequence:byteCount:fill:appSequence:)`); it encoded the record twice, once only to
/// count its bytes (docs/performance.md, "hmig24", "hrep25").
extension StoreJournal {
  /// The length in bytes of the line `encode(sequence:changes:rows:into:pieceBytes:write:)`
  /// writes for `changes`, which hold no put: each removal (`{"remove":"<table>","id":N}`
  /// and its comma) is counted from its table's name and its id's digits, a run of ids at a
  /// time; the other changes (documents) are encoded, once.
  ///
  /// - Throws: what encoding the other changes throws (`invalidChange` for a document holding
  ///   a number that is not finite).
  /// - Complexity: O(runs of removed ids + size of the other changes).
  static func encodedLength(sequence: Int, removalsAnd changes: [StoreChange]) throws(StoreError)
    -> Int
  {
    var others: [StoreChange] = []
    var removals = 0
    var removalBytes = 0
    var writer = JSONWriter()
    func add(_ table: String, _ ids: IDStepRun) {
      writer.truncate(to: 0)
      writer.write(table)
      // `{"remove":` and `,"id":` and `}` around the table's name and the id.
      let fixed = 10 + writer.bytes.count + 6 + 1
      removals += ids.count
      removalBytes += fixed * ids.count + Self.digits(in: ids)
    }
    for change in changes {
      switch change {
      case .remove(let table, let id): add(table, IDStepRun(id))
      case .removeRun(let table, let ids): for run in ids.runs { add(table, run) }
      case .put, .putRun: preconditionFailure("a record with puts is counted by encoding it")
      case .setDocument, .removeDocument: others.append(change)
      }
    }
    var length = 0
    try encode(
      sequence: sequence, changes: others, rows: EncodedRows(), into: &writer, pieceBytes: .max
    ) { bytes throws(StoreError) in length += bytes.count }
    // One comma before every element but the first.
    let commas = others.isEmpty ? max(removals - 1, 0) : removals
    return length + removalBytes + commas
  }

  /// How many characters the decimal numbers of `ids` take, written as `JSONWriter` writes
  /// an integer (a minus sign before a negative one), counted by how many have each width.
  static func digits(in ids: ClosedRange<Int>) -> Int {
    var total = 0
    if ids.lowerBound < 0 {
      let negative = min(ids.upperBound, -1)
      // The magnitudes of lowerBound...negative, and a sign each.
      total += digits(magnitudes: UInt64(negative.magnitude)...UInt64(ids.lowerBound.magnitude))
      total += Int(clamping: ids.lowerBound.magnitude - negative.magnitude + 1)
    }
    if ids.upperBound >= 0 {
      total += digits(magnitudes: UInt64(max(ids.lowerBound, 0))...UInt64(ids.upperBound))
    }
    return total
  }

  /// How many characters the decimal numbers of `run` take (`digits(in:)` for consecutive
  /// ids; a run a step apart, own25's, one id at a time).
  static func digits(in run: IDStepRun) -> Int {
    if run.step == 1 { return digits(in: run.lowerBound...run.upperBound) }
    var total = 0
    for id in run {
      var (magnitude, width) = (id.magnitude, id < 0 ? 2 : 1)
      while magnitude >= 10 {
        magnitude /= 10
        width += 1
      }
      total += width
    }
    return total
  }

  /// How many decimal digits the numbers of `range` take together.
  private static func digits(magnitudes range: ClosedRange<UInt64>) -> Int {
    var total = 0
    var low: UInt64 = 0
    for width in 1...20 {
      // The numbers of `width` digits: low...high (0 has one).
      let high = width == 20 ? UInt64.max : (low == 0 ? 9 : low * 10 - 1)
      let from = max(low, range.lowerBound)
      let to = min(high, range.upperBound)
      if from <= to { total += Int(clamping: to - from + 1) * width }
      if high >= range.upperBound { break }
      low = high + 1
    }
    return total
  }
}
