/// The entries of weigh's own rows that an import streamed after a log's rows numbers only
/// once the file is read (`ImportStream.take(_:numberedAfter:)`: their number is the log's,
/// or they have none), kept in the plan's order (by instant, then line) until `finish`
/// numbers them, without holding them: while they come in that order (an export's rows
/// do), each is encoded and appended to a scratch file in the store's folder
/// (`Store.scratchFile`, unlinked as it is made: a kill leaves nothing, and closing it, at
/// the end of this value whatever path the import took, frees its room), written
/// `Store.scratchPieceBytes` at a time, and read back a piece at a time. A row that goes
/// back (an earlier instant, or an earlier line at the same instant) turns the rows into
/// entries held, as they were before (own22): read back whole, and sorted at the end.
///
/// Measured (own23, docs/performance.md): 1,000,000 rows of weigh's CSV numbered 1 to
/// 1,000,000, imported after a log of 1,000,000 other entries numbered so, peaked at
/// 201,652 / 201,704 KB held (their entries, 64 bytes each, with the array's growth and the
/// copy `finish` made) and at 85,624 / 85,476 KB through the scratch file (its JSON 206,712
/// -> 84,840 KB; import + undo 201,424 -> 85,712 KB), the same files and output; 100,000
/// such rows 1,634.8 M instructions held, 1,725.1 M through the file (1.055: the rows
/// encoded, written, read back and decoded; callgrind).
final class ImportRenumberedEntries {
  /// Makes the scratch file when the first piece is written.
  private let makeScratch: () -> StoreScratchFile?
  private let pieceBytes: Int
  /// How many rows were added.
  private(set) var count = 0
  /// The rows encoded and not written yet: the last ones (every one, while fewer than a
  /// piece's bytes came: then no file is made).
  private var bytes: [UInt8] = []
  private var scratch: StoreScratchFile?
  /// The last row's instant and line, while the rows come in order.
  private var last: (instant: Int64, line: UInt32) = (.min, 0)
  /// Whether the rows are held (`held`), after one went back.
  private var holds = false
  private var held: [Entry] = []
  private var heldLines: [UInt32] = []

  /// Rows kept in a scratch file `makeScratch` makes, written `pieceBytes` at a time.
  init(pieceBytes: Int, scratch makeScratch: @escaping () -> StoreScratchFile?) {
    self.pieceBytes = max(pieceBytes, 64)
    self.makeScratch = makeScratch
  }

  /// Adds the entry of the row read from `line` (its number is set by `forEachPiece`); false
  /// when it cannot be kept (the scratch file could not be made or written, or read back).
  func append(_ entry: Entry, line: UInt32) -> Bool {
    count += 1
    if holds {
      held.append(entry)
      heldLines.append(line)
      return true
    }
    if entry.instant < last.instant || (entry.instant == last.instant && line < last.line) {
      guard holdEveryRow() else { return false }
      held.append(entry)
      heldLines.append(line)
      return true
    }
    last = (entry.instant, line)
    Self.encode(entry, line: line, into: &bytes)
    guard bytes.count >= pieceBytes else { return true }
    if scratch == nil {
      scratch = makeScratch()
      guard scratch != nil else { return false }
    }
    do throws(StoreError) {
      try scratch!.append(bytes)
    } catch {
      return false
    }
    bytes.removeAll(keepingCapacity: true)
    return true
  }

  /// Hands the entries to `body` in the plan's order (by instant, then line, then the order
  /// they came in), `size` at a time (the last piece fewer; `body` may change them in
  /// place); stops when `body` returns false. False when that happened or the rows could
  /// not be read back. Once: held entries are let go as they are handed on.
  func forEachPiece(of size: Int, _ body: (inout [Entry]) -> Bool) -> Bool {
    var piece: [Entry] = []
    piece.reserveCapacity(min(size, count))
    if holds {
      ImportPlan.sortByTime(&held, lines: &heldLines)
      heldLines = []
      let entries = held
      held = []
      for start in stride(from: 0, to: entries.count, by: size) {
        piece.removeAll(keepingCapacity: true)
        piece.append(contentsOf: entries[start..<min(start + size, entries.count)])
        guard body(&piece) else { return false }
      }
      return true
    }
    let read = forEachRow { entry, _ in
      piece.append(entry)
      guard piece.count == size else { return true }
      defer { piece.removeAll(keepingCapacity: true) }
      return body(&piece)
    }
    return read && (piece.isEmpty || body(&piece))
  }

  /// Reads the rows written back into `held`, in the order they came, and holds the rows to
  /// come there too; false when they cannot be read.
  private func holdEveryRow() -> Bool {
    var (entries, lines) = ([Entry](), [UInt32]())
    entries.reserveCapacity(count)
    lines.reserveCapacity(count)
    guard
      forEachRow({ entry, line in
        entries.append(entry)
        lines.append(line)
        return true
      })
    else { return false }
    (held, heldLines, holds) = (entries, lines, true)
    (scratch, bytes) = (nil, [])
    return true
  }

  /// Hands each row written (in the scratch file, then in `bytes`) to `body`, in the order
  /// they came; false when `body` returned false or the file could not be read back.
  private func forEachRow(_ body: (Entry, UInt32) -> Bool) -> Bool {
    var window: [UInt8] = []
    var piece: [UInt8] = []
    var offset = 0
    if let scratch {
      while offset < scratch.length {
        guard
          scratch.read(
            at: offset, count: min(pieceBytes, scratch.length - offset), into: &piece),
          !piece.isEmpty
        else { return false }
        offset += piece.count
        window.append(contentsOf: piece)
        let used = Self.decode(window) { body($0, $1) }
        guard let used else { return false }
        window.removeSubrange(..<used)
      }
    }
    window.append(contentsOf: bytes)
    // Every row written is whole once the bytes not written yet follow the file's.
    return Self.decode(window) { body($0, $1) } == window.count
  }

  // MARK: The rows' bytes

  /// The flags of a row's optional fields.
  private enum Has {
    static let fileTime: UInt8 = 1
    static let note: UInt8 = 2
    static let healthUUID: UInt8 = 4
    static let pushedUUID: UInt8 = 8
    static let pushedRevision: UInt8 = 16
  }

  /// A row: its length (these 4 bytes included), the instant, the weight's bits, the line,
  /// the revision, the origin, the flags of the fields present, then those present (the
  /// file time, the pushed revision, the note, the two UUIDs: strings as a length and
  /// UTF-8) and the source, in the machine's byte order (the file lives as long as the
  /// command). The fixed fields are stored in place: appended one by one through
  /// `withUnsafeBytes(of:)`, a row's `append` took 1,137 instructions, 641 now (callgrind).
  private static func encode(_ entry: Entry, line: UInt32, into bytes: inout [UInt8]) {
    let (note, healthUUID, pushedUUID) = (entry.note, entry.healthUUID, entry.pushedUUID)
    let pushedRevision = entry.pushedRevision
    var flags: UInt8 = 0
    if entry.fileTime != nil { flags |= Has.fileTime }
    if note != nil { flags |= Has.note }
    if healthUUID != nil { flags |= Has.healthUUID }
    if pushedUUID != nil { flags |= Has.pushedUUID }
    if pushedRevision != nil { flags |= Has.pushedRevision }
    let origin: UInt8 =
      switch entry.origin {
      case .manual: 0
      case .health: 1
      case .import: 2
      }
    let fixed = 30 + (entry.fileTime == nil ? 0 : 8) + (pushedRevision == nil ? 0 : 4)
    let start = bytes.count
    bytes.append(addingCapacity: fixed) { span in
      span.withUnsafeMutableBufferPointer { target, done in
        let raw = UnsafeMutableRawBufferPointer(target)
        raw.storeBytes(of: entry.instant, toByteOffset: 4, as: Int64.self)
        raw.storeBytes(of: entry.kilograms.bitPattern, toByteOffset: 12, as: UInt64.self)
        raw.storeBytes(of: line, toByteOffset: 20, as: UInt32.self)
        // checked: an entry's revision is inside ValueLimits.revision (Int32)
        raw.storeBytes(
          of: Int32(truncatingIfNeeded: entry.revision), toByteOffset: 24, as: Int32.self)
        raw[28] = origin
        raw[29] = flags
        var at = 30
        if let fileTime = entry.fileTime {
          raw.storeBytes(of: fileTime, toByteOffset: at, as: Int64.self)
          at += 8
        }
        if let pushedRevision {
          // checked: a pushed revision is inside ValueLimits.revision (Int32)
          raw.storeBytes(
            of: Int32(truncatingIfNeeded: pushedRevision), toByteOffset: at, as: Int32.self)
        }
        done = fixed
      }
    }
    if let note { append(note, to: &bytes) }
    if let healthUUID { append(healthUUID, to: &bytes) }
    if let pushedUUID { append(pushedUUID, to: &bytes) }
    append(entry.source, to: &bytes)
    let length = UInt32(truncatingIfNeeded: bytes.count - start)
    bytes.withUnsafeMutableBytes { $0.storeBytes(of: length, toByteOffset: start, as: UInt32.self) }
  }

  /// Appends `text`'s length (4 bytes) and UTF-8.
  private static func append(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { utf8 in
      let count = UInt32(truncatingIfNeeded: utf8.count)
      bytes.append(addingCapacity: 4) { span in
        span.withUnsafeMutableBufferPointer { target, done in
          UnsafeMutableRawBufferPointer(target).storeBytes(of: count, as: UInt32.self)
          done = 4
        }
      }
      bytes.append(contentsOf: utf8)
    }
  }

  /// Decodes the whole rows at the start of `bytes`, handing each to `body`: how many bytes
  /// they took, or nil when `body` returned false or a row does not read.
  private static func decode(_ bytes: [UInt8], _ body: (Entry, UInt32) -> Bool) -> Int? {
    bytes.withUnsafeBytes { raw -> Int? in
      var offset = 0
      while raw.count - offset >= 4 {
        // checked: UInt32 to Int widens
        let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        guard length >= 34 else { return nil }
        guard raw.count - offset >= length else { break }
        let row = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])
        guard let (entry, line) = decodeRow(row), body(entry, line) else { return nil }
        offset += length
      }
      return offset
    }
  }

  /// One row written by `encode` (at least its 34 bytes); nil when it does not read so.
  private static func decodeRow(_ row: UnsafeRawBufferPointer) -> (Entry, UInt32)? {
    let instant = row.loadUnaligned(fromByteOffset: 4, as: Int64.self)
    let bits = row.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
    let line = row.loadUnaligned(fromByteOffset: 20, as: UInt32.self)
    // checked: Int32 to Int widens
    let revision = Int(row.loadUnaligned(fromByteOffset: 24, as: Int32.self))
    let flags = row[29]
    var at = 30
    var fileTime: Int64?
    var pushedRevision: Int?
    if flags & Has.fileTime != 0 {
      guard row.count - at >= 8 else { return nil }
      fileTime = row.loadUnaligned(fromByteOffset: at, as: Int64.self)
      at += 8
    }
    if flags & Has.pushedRevision != 0 {
      guard row.count - at >= 4 else { return nil }
      // checked: Int32 to Int widens
      pushedRevision = Int(row.loadUnaligned(fromByteOffset: at, as: Int32.self))
      at += 4
    }
    // The row's bytes are those of a `[UInt8]`: bound to UInt8.
    let base = row.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    func text() -> String? {
      guard row.count - at >= 4 else { return nil }
      // checked: UInt32 to Int widens
      let count = Int(row.loadUnaligned(fromByteOffset: at, as: UInt32.self))
      at += 4
      guard row.count - at >= count else { return nil }
      defer { at += count }
      return String(decoding: UnsafeBufferPointer(start: base + at, count: count), as: UTF8.self)
    }
    var (note, healthUUID, pushedUUID): (String?, String?, String?)
    if flags & Has.note != 0 {
      guard let text = text() else { return nil }
      note = text
    }
    if flags & Has.healthUUID != 0 {
      guard let text = text() else { return nil }
      healthUUID = text
    }
    if flags & Has.pushedUUID != 0 {
      guard let text = text() else { return nil }
      pushedUUID = text
    }
    guard let source = text(), at == row.count else { return nil }
    let origin: Origin
    switch row[28] {
    case 0: origin = .manual
    case 1: origin = .health
    case 2: origin = .import
    default: return nil
    }
    let entry = Entry(
      id: 0, instant: instant, kilograms: Double(bitPattern: bits), origin: origin,
      source: source, note: note, revision: revision, healthUUID: healthUUID,
      pushedUUID: pushedUUID, pushedRevision: pushedRevision, fileTime: fileTime)
    return (entry, line)
  }
}
