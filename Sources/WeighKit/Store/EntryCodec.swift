/// The `entries` table: the app's weight log, one entry per line of `entries.json`:
///
///     {"id":1,"at":"2026-01-01T08:00:00Z","kg":68.5,"origin":"manual","source":"weigh","rev":1}
///
/// Optional members (`note`, `healthUUID`, `pushedUUID`, `pushedRev`, `fileTime`) are left
/// out when absent. `at` is UTC; an instant outside years 0000–9999 is written as a number
/// of seconds instead; `fileTime` is a wall-clock time without a zone. `kg` is the shortest text that reads back as the identical Double.
public enum EntryCodec: StoreTableCodec {
  /// `entries`.
  public static let tableName = "entries"
  /// `weigh-entries`.
  public static let formatName = "weigh-entries"
  /// 1.
  public static let formatVersion = 1

  /// The entry's number.
  public static func id(of row: Entry) -> Int { row.id }

  /// Writes one entry as a compact object, in one step: room for the longest text the
  /// entry can take is made once and every piece is stored through a pointer
  /// (`ByteCursor`), so a million-row import encodes each row for a few hundred
  /// instructions, not a call into `Array` per piece.
  public static func encode(_ row: Entry, into writer: inout JSONWriter) {
    withUnsafePointer(to: row) { encode(at: $0, into: &writer) }
  }

  /// `encode` of the entry at `entry`, read where it lies: each member is loaded as it is
  /// written, where an entry passed from a buffer of rows was copied whole (an outlined
  /// copy and destroy, retaining and releasing its strings: 117 instructions a row of an
  /// import, callgrind, wfit16).
  static func encode(at entry: UnsafePointer<Entry>, into writer: inout JSONWriter) {
    var room = 256 + ByteCursor.stringRoom(entry.pointee.source.utf8.count)
    if let note = entry.pointee.note { room += ByteCursor.stringRoom(note.utf8.count) }
    if let healthUUID = entry.pointee.healthUUID {
      room += ByteCursor.stringRoom(healthUUID.utf8.count)
    }
    if let pushedUUID = entry.pointee.pushedUUID {
      room += ByteCursor.stringRoom(pushedUUID.utf8.count)
    }
    var finite = true
    // Out of the writer while the row is written into it (one access at a time), put back
    // after: taking it out and back costs a few moves, not a copy of its slots.
    var doubleTexts = ByteCursorDoubleMemo()
    swap(&doubleTexts, &writer.doubleTexts)
    var lastDay = writer.lastDay
    defer {
      swap(&doubleTexts, &writer.doubleTexts)
      writer.lastDay = lastDay
    }
    writer.append(atMost: room) { cursor in
      cursor.literal("{\"id\":")
      cursor.integer(entry.pointee.id)
      cursor.literal(",\"at\":")
      var atDate: UnsafePointer<UInt8>?  // where `at`'s date lies, when written as text
      if UTCTimestamp.range.contains(entry.pointee.instant) {
        atDate = cursor.instantKeepingDate(entry.pointee.instant, last: &lastDay)
      } else {
        cursor.integer(Int(entry.pointee.instant))  // checked: Int and Int64 have one width
      }
      cursor.literal(",\"kg\":")
      finite = doubleTexts.double(entry.pointee.kilograms, into: &cursor)
      switch entry.pointee.origin {
      case .manual: cursor.literal(",\"origin\":\"manual\"")
      case .health: cursor.literal(",\"origin\":\"health\"")
      case .import: cursor.literal(",\"origin\":\"import\"")
      }
      cursor.literal(",\"source\":")
      cursor.string(entry.pointee.source)
      if let note = entry.pointee.note {
        cursor.literal(",\"note\":")
        cursor.string(note)
      }
      cursor.literal(",\"rev\":")
      cursor.integer(entry.pointee.revision)
      if let healthUUID = entry.pointee.healthUUID {
        cursor.literal(",\"healthUUID\":")
        cursor.string(healthUUID)
      }
      if let pushedUUID = entry.pointee.pushedUUID {
        cursor.literal(",\"pushedUUID\":")
        cursor.string(pushedUUID)
      }
      if let pushedRevision = entry.pointee.pushedRevision {
        cursor.literal(",\"pushedRev\":")
        cursor.integer(pushedRevision)
      }
      if let fileTime = entry.pointee.fileTime, UTCInstantText.range.contains(fileTime) {
        // A wall-clock time: the UTC text without its Z.
        cursor.literal(",\"fileTime\":")
        if let atDate {
          cursor.wallClock(fileTime, sameDayAs: entry.pointee.instant, dateAt: atDate)
        } else {
          cursor.wallClock(fileTime)
        }
      }
      cursor.byte(0x7D)
    }
    if !finite { writer.noteNonFiniteNumber() }
  }

  /// `encode`, then `readBackShape`, on the entry where it lies. Written out here so that
  /// the store's generic run of rows (`StoreRowRunBox`) reaches code made for `Entry`:
  /// through the protocol's default, and with `rows[index]` named twice here, each row was
  /// copied twice, for the encoding and for the shape (an outlined copy and destroy each,
  /// 15 M of 544 M instructions, callgrind, 100,000 MyFitnessPal rows, wstore10); a row
  /// taken from the buffer once was still copied once (11.7 M of 469 M, 100,000 Fitbit
  /// logs, wfit16), which reading it through its address avoids.
  public static func encodeRow(
    at index: Int, of rows: UnsafeBufferPointer<Entry>, into writer: inout JSONWriter
  ) -> UInt64? {
    precondition(rows.indices.contains(index), "a row outside the run")
    let entry = rows.baseAddress.unsafelyUnwrapped + index
    encode(at: entry, into: &writer)
    return readBackShape(at: entry)
  }

  /// Which members `encode` writes for `entry` and in which form: `at` as text or as a
  /// number, the origin, and which optional members are there (`fileTime` only when it is
  /// written). Two entries of one shape are written by the same steps, only their values
  /// differing (numbers through `JSONWriter`'s number writers, which write text that reads
  /// back as the same value, and texts through its string writer, both with tests of their
  /// own), so one read back through `decode` checks the steps of both. Each of the entry's
  /// own values is checked here as `decode` checks it (`StoredValueRule`, the UUIDs'
  /// form); an entry with a value `decode` would refuse has no shape and is read back, which
  /// then says which value and where.
  public static func readBackShape(of entry: Entry) -> UInt64? {
    withUnsafePointer(to: entry) { readBackShape(at: $0) }
  }

  /// `readBackShape` of the entry at `address`, read where it lies (`encode(at:into:)`).
  static func readBackShape(at address: UnsafePointer<Entry>) -> UInt64? {
    guard StoredValueRule.entryNumber.contains(Double(address.pointee.id)),
      StoredValueRule.wholeInstant.contains(address.pointee.instant),
      StoredValueRule.kilograms.contains(address.pointee.kilograms),
      StoredValueRule.revision.contains(Double(address.pointee.revision))
    else { return nil }
    var shape: UInt64 =
      switch address.pointee.origin {
      case .manual: 0
      case .health: 1
      case .import: 2
      }
    func mark(_ present: Bool, _ bit: UInt64) { if present { shape |= 1 << bit } }
    mark(UTCTimestamp.range.contains(address.pointee.instant), 2)
    mark(address.pointee.note != nil, 3)
    if let healthUUID = address.pointee.healthUUID {
      guard StoredText.isUUID(healthUUID) else { return nil }
      mark(true, 4)
    }
    if let pushedUUID = address.pointee.pushedUUID {
      guard StoredText.isUUID(pushedUUID) else { return nil }
      mark(true, 5)
    }
    if let pushedRevision = address.pointee.pushedRevision {
      guard StoredValueRule.revision.contains(Double(pushedRevision)) else { return nil }
      mark(true, 6)
    }
    mark(address.pointee.fileTime.map(UTCInstantText.range.contains) ?? false, 7)
    return shape
  }

  /// Reads one entry object; `id`, `at`, `kg`, `origin` and `source` are required, `rev`
  /// defaults to 1, unknown members are skipped. Every value is checked against its range
  /// (`StoredValueRule`): a wrong type or an out-of-range value is an error at the value.
  public static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> Entry {
    let start = reader.offset
    try reader.beginObject()
    var id: Int?
    var instant: Int64?
    var kilograms: Double?
    var origin: Origin?
    var source: String?
    var note: String?
    var revision = 1
    var healthUUID: String?
    var pushedUUID: String?
    var pushedRevision: Int?
    var fileTime: Int64?
    while let key = try reader.nextKey() {
      if key.equals("id") {
        id = try reader.readWhole("id", .entryNumber)
      } else if key.equals("at") {
        if reader.peek() == 0x22 {
          let text = try reader.readRawString()
          guard let parsed = UTCTimestamp.parse(text.raw) else {
            throw reader.error(
              "expected a UTC time such as \"2026-01-01T08:00:00Z\"", at: text.offset)
          }
          guard StoredValueRule.wholeInstant.contains(parsed) else {
            throw reader.error(
              StoredValueRule.wholeInstant.message(
                member: "at", found: "\"\(String(decoding: text.raw, as: UTF8.self))\""),
              at: text.offset)
          }
          instant = parsed
        } else {
          // checked: inside the instant range
          instant = Int64(try reader.readWhole("at", .wholeInstant))
        }
      } else if key.equals("kg") {
        kilograms = try reader.readNumber("kg", .kilograms)
      } else if key.equals("origin") {
        guard reader.peek() == 0x22 else {
          throw reader.wrongType("origin", "\"manual\", \"health\" or \"import\"")
        }
        let text = try reader.readRawString()
        if text.equals("manual") {
          origin = .manual
        } else if text.equals("health") {
          origin = .health
        } else if text.equals("import") {
          origin = .import
        } else {
          throw reader.error(
            "expected origin \"manual\", \"health\" or \"import\"", at: text.offset)
        }
      } else if key.equals("source") {
        source = try reader.readString("source")
      } else if key.equals("note") {
        note = try reader.readString("note")
      } else if key.equals("rev") {
        revision = try reader.readWhole("rev", .revision)
      } else if key.equals("healthUUID") {
        healthUUID = try reader.readUUIDString("healthUUID")
      } else if key.equals("pushedUUID") {
        pushedUUID = try reader.readUUIDString("pushedUUID")
      } else if key.equals("pushedRev") {
        pushedRevision = try reader.readWhole("pushedRev", .revision)
      } else if key.equals("fileTime") {
        guard reader.peek() == 0x22 else {
          throw reader.wrongType("fileTime", "a wall-clock time such as \"2026-01-01T08:00:00\"")
        }
        let text = try reader.readRawString()
        // Read where it is: no copy with a `Z` added (two arrays a row, loading a table).
        guard let parsed = UTCInstantText.parseWallClock(text.raw) else {
          throw reader.error(
            "expected a wall-clock time such as \"2026-01-01T08:00:00\"", at: text.offset)
        }
        fileTime = parsed
      } else {
        try reader.skipValue()
      }
    }
    guard let id, let instant, let kilograms, let origin, let source else {
      let missing = [
        id == nil ? "id" : nil, instant == nil ? "at" : nil, kilograms == nil ? "kg" : nil,
        origin == nil ? "origin" : nil, source == nil ? "source" : nil,
      ].compactMap { $0 }
      throw reader.error("entry lacks \(missing.joined(separator: ", "))", at: start)
    }
    return Entry(
      id: id, instant: instant, kilograms: kilograms, origin: origin, source: source,
      note: note, revision: revision, healthUUID: healthUUID, pushedUUID: pushedUUID,
      pushedRevision: pushedRevision, fileTime: fileTime)
  }
}
