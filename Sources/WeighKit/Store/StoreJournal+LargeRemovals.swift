#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A journal's large last record of removals, read a piece at a time: the undo of a large
/// import whose compaction did not follow (a kill after the commit). Read whole, its line
/// was held beside the rest (33 MB for the undo of 1,000,000 entries): the next open of such
/// a store peaked at 49,744 KB and `weigh check` at 49,840 KB; 30,412 and 28,356 KB read so
/// (chk21). The same undo of an import that brought its settings sets them back after the
/// removals: `weigh check` 53,592 → 32,520 KB, the open (`set unit kg`) 53,596 → 24,712 KB,
/// 2,617 → 309 M instructions (rep22).
///
/// Only the shape `StoreJournal.encode` writes is read so, `{"seq":N,"changes":[` then
/// `{"remove":"<table>","id":N}` of known tables, 1,024 or more of them, a stretch of one
/// table after another's (the migration of Health's tables removes the rows of `health`
/// then `health-sync`; with the compaction that copies the table, the open after the
/// migration of 1,000,000 samples went from 538 MB to 13 MB of anonymous memory; hmig24),
/// then either `]` or document changes (at most 16 MiB of them) and `]`, then the checksum.
/// The transaction is what parsing the line whole makes of it (each stretch of 1,024
/// removals or more kept as one `removeRun`, a shorter one as removals of their own,
/// `RemovalStretch`, then the documents), so opening and checking go on as
/// after a whole read; anything else (another change, a number written another way, a
/// checksum that does not match) gives nil, and the caller reads the journal whole, as
/// before, for the same contents or the same refusal.
extension StoreJournal {
  /// Parses `lines`, a journal's bytes up to its large last whole line `large`, then that
  /// line a piece at a time when it holds removals only, as
  /// ``parse(_:large:size:path:table:)`` does with an import's rows.
  ///
  /// - Returns: nil when the journal is to be read whole instead.
  /// - Complexity: O(n) in the journal's size; memory O(`lines` + piece + the ids' runs).
  static func parse(
    _ lines: [UInt8], removals large: Range<Int>, size: Int, path: String,
    table: (String) -> (any AnyTableStorage)?, pieceBytes: Int = StoreFileSystem.tailPiece
  ) throws(StoreError) -> Contents? {
    var contents = try parse(lines, path: path, table: table)
    guard contents.problem == nil, contents.version >= 2, let base = contents.base,
      contents.completeLength == large.lowerBound,
      large.count > StoreChecksum.lineSuffixLength
    else { return nil }
    var scan = RemovalRecordScan(
      contentEnd: large.upperBound - StoreChecksum.lineSuffixLength, position: large.lowerBound)
    try StoreFileSystem.readPieces(path, large, pieceBytes: pieceBytes) { piece in
      scan.take(piece)
    }
    guard let (sequence, stretches, documentBytes) = scan.finish(),
      stretches.allSatisfy({ table($0.table) != nil }),
      sequence == contents.lastSequence + 1, sequence > base
    else { return nil }
    var documents: [StoreChange] = []
    if !documentBytes.isEmpty {
      // The changes after the removals, read as a record of their own.
      guard let parsed = documentChanges(documentBytes[...], table: table), !parsed.isEmpty
      else { return nil }
      documents = parsed
    }
    // Each table's stretch as the whole read keeps it (`RemovalStretch`): a run from 1,024
    // removals, removals of their own below.
    var changes: [StoreChange] = []
    for stretch in stretches {
      if stretch.count >= StoreJournal.RemovalStretch.runFrom {
        changes.append(.removeRun(table: stretch.table, ids: stretch.ids))
      } else {
        for id in stretch.ids { changes.append(.remove(table: stretch.table, id: id)) }
      }
    }
    var transaction = Transaction(sequence: sequence, changes: changes + documents)
    transaction.line = contents.completeLines + 1
    transaction.end = large.upperBound + 1
    contents.transactions.append(transaction)
    contents.completeLength = transaction.end
    contents.completeLines += 1
    if size > contents.completeLength {
      contents.problem = Problem(
        offset: contents.completeLength, line: contents.completeLines + 1, column: 1,
        message: incompleteLastLine, unterminated: true)
    }
    return contents
  }
}

/// The state of reading a record of removals (`StoreJournal.parse(_:removals:…)`) between
/// two pieces: a change at a time, or a byte at a time where a change spans two pieces,
/// against the one shape it takes.
private struct RemovalRecordScan {
  enum Stage {
    case head, sequence, changesHead, removeHead, name, idHead, id, afterChange, documents, end
    case failed
  }

  /// Where the line's `,"crc":"…"}` starts in the file.
  let contentEnd: Int
  /// The file offset of the next byte.
  var position: Int
  var stage = Stage.head
  /// How many bytes of the stage's literal were matched.
  var matched = 0
  var number = 0
  var digits = 0
  var sequence = 0
  var name: [UInt8] = []
  /// The table of the stretch of removals being read.
  var currentName: [UInt8]?
  /// `{"remove":"<table>","id":` once the table is known.
  var changeHead: [UInt8] = []
  var ids = IDRuns()
  /// The removals of the stretch being read, and of all.
  var stretchCount = 0
  var count = 0
  /// The stretches before the one being read: removals of one table each, one after the
  /// other (the migration of Health's tables removes the rows of two).
  var stretches: [(table: String, ids: IDRuns, count: Int)] = []
  var crc = ZipCRC32()
  var suffix: [UInt8] = []
  /// The changes after the removals, when they are not all removals (an undo that also
  /// sets a document back): through the `]` that ends the changes.
  var documents: [UInt8] = []

  /// The most the changes after the removals may take: more is read whole by the caller.
  static let largestDocuments = 16 << 20

  private static let seqHead = Array("{\"seq\":".utf8)
  private static let changesHead = Array(",\"changes\":[".utf8)
  private static let removeHead = Array("{\"remove\":\"".utf8)
  private static let idHead = Array("\",\"id\":".utf8)

  init(contentEnd: Int, position: Int) {
    self.contentEnd = contentEnd
    self.position = position
  }

  mutating func take(_ piece: UnsafeBufferPointer<UInt8>) {
    let checked = max(0, min(piece.count, contentEnd - position))
    crc.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: piece[0..<checked])))
    var index = 0
    while index < checked, stage != .failed {
      if stage == .removeHead, matched == 0, !changeHead.isEmpty,
        checked - index > changeHead.count + 20, let next = change(in: piece, at: index)
      {
        index = next
        continue
      }
      step(piece[index])
      index += 1
    }
    suffix += piece[checked...]
    position += piece.count
  }

  /// A whole change at `offset` of `piece`, `{"remove":"<table>","id":N}` and the `,` or
  /// `]` after it, taken at once; the offset after it, or nil (nothing taken) for anything
  /// else, which `step` then reads a byte at a time. A byte a step made the scan of the
  /// undo of 1,000,000 entries cost about 0.1 s more than the whole line's parse (chk21).
  private mutating func change(in piece: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    let head = changeHead.withUnsafeBytes { head in
      memcmp(piece.baseAddress! + offset, head.baseAddress!, head.count)
    }
    guard head == 0 else { return nil }
    var end = offset + changeHead.count
    var value = 0
    let first = end
    while end - first < 18, (0x30...0x39).contains(piece[end]) {
      // checked: a digit's value, 0 to 9; at most 18 digits, under Int.max
      value = value * 10 + Int(piece[end] - 0x30)
      end += 1
    }
    guard end > first, piece[first] != 0x30, piece[end] == 0x7D,
      piece[end + 1] == 0x2C || piece[end + 1] == 0x5D
    else { return nil }
    ids.append(value)
    count += 1
    stretchCount += 1
    if piece[end + 1] == 0x5D { stage = .end }
    return end + 2
  }

  /// Matches `byte` against `literal`; goes on to `next` once all of it is matched.
  private mutating func match(_ byte: UInt8, _ literal: [UInt8], then next: Stage) {
    guard literal[matched] == byte else { return stage = .failed }
    matched += 1
    if matched == literal.count {
      matched = 0
      stage = next
    }
  }

  /// Takes one digit of a number that does not start with 0 and has at most 18 digits
  /// (under `Int.max`); false for any other byte.
  private mutating func digit(_ byte: UInt8) -> Bool {
    guard (0x30...0x39).contains(byte), digits < 18, digits > 0 || byte != 0x30 else {
      return false
    }
    // checked: a digit's value, 0 to 9; at most 18 digits, under Int.max
    number = number * 10 + Int(byte - 0x30)
    digits += 1
    return true
  }

  private mutating func step(_ byte: UInt8) {
    switch stage {
    case .head: match(byte, Self.seqHead, then: .sequence)
    case .sequence:
      if digit(byte) { return }
      guard digits > 0 else { return stage = .failed }
      sequence = number
      (number, digits) = (0, 0)
      stage = .changesHead
      match(byte, Self.changesHead, then: .removeHead)
    case .changesHead: match(byte, Self.changesHead, then: .removeHead)
    case .removeHead:
      if count > 0, Self.removeHead[matched] != byte {
        // Not a removal: what follows the removals, kept to be read as changes of their own.
        documents = Array(Self.removeHead[..<matched]) + [byte]
        matched = 0
        stage = .documents
        return
      }
      match(byte, Self.removeHead, then: .name)
      name.removeAll(keepingCapacity: true)
    case .name:
      if byte == 0x22 {
        if name != currentName {
          endStretch()
          currentName = name
          changeHead = Self.removeHead + name + Self.idHead
        }
        stage = .idHead
        matched = 1
        return
      }
      guard name.count < 64,
        byte == 0x5F || byte == 0x2D || (0x61...0x7A).contains(byte)
          || (0x30...0x39).contains(byte)
      else { return stage = .failed }
      name.append(byte)
    case .idHead: match(byte, Self.idHead, then: .id)
    case .id:
      if digit(byte) { return }
      guard digits > 0, byte == 0x7D else { return stage = .failed }
      ids.append(number)
      count += 1
      stretchCount += 1
      (number, digits) = (0, 0)
      stage = .afterChange
    case .afterChange:
      if byte == 0x2C {
        stage = .removeHead
      } else if byte == 0x5D {
        stage = .end
      } else {
        stage = .failed
      }
    case .documents:
      guard documents.count < Self.largestDocuments else { return stage = .failed }
      documents.append(byte)
    case .end, .failed: stage = .failed
    }
  }

  /// Hands the stretch being read on to `stretches`.
  private mutating func endStretch() {
    guard let currentName, stretchCount > 0 else { return }
    stretches.append((String(decoding: currentName, as: UTF8.self), ids, stretchCount))
    ids = IDRuns()
    stretchCount = 0
  }

  /// The record's sequence, its stretches of removals (a table's ids each, in the record's
  /// order) and the bytes of the changes after them (empty for none, else through the `]`
  /// that ends the changes); nil unless it is of the shape read here, of enough removals to
  /// be kept as a run, and its checksum matches.
  mutating func finish() -> (
    sequence: Int, stretches: [(table: String, ids: IDRuns, count: Int)], documents: [UInt8]
  )? {
    guard stage == .end || (stage == .documents && documents.last == 0x5D),
      count >= StoreJournal.RemovalStretch.runFrom, currentName != nil,
      position == contentEnd + StoreChecksum.lineSuffixLength
    else { return nil }
    let matches = suffix.withUnsafeBufferPointer { bytes in
      StoreChecksum.parseHex(bytes, at: 8) == crc.value
        && bytes[0..<8].elementsEqual(",\"crc\":\"".utf8) && bytes[16] == 0x22
        && bytes[17] == 0x7D
    }
    guard matches else { return nil }
    endStretch()
    return (sequence, stretches, documents)
  }
}
