/// The fields of the log's entries a re-import looks up, read straight from `entries.json`
/// (`Store.forEachRowInFile`) without making the log's `[Entry]`: 32 bytes an entry (the
/// number, instant, file time, weight, and the source as a number into the distinct
/// sources), where an `Entry` takes 64 and the log held whole as entries also held, at the
/// end of the table file's read, the second half's rows beside the first's.
struct CompactLog: PresenceLog {
  /// One entry's fields.
  struct Row {
    var instant: Int64
    /// `noFileTime` when the entry has none.
    var fileTime: Int64
    var kilograms: Double
    /// Entry numbers fit in 31 bits (`ValueLimits.entryNumber`).
    var id: UInt32
    /// The position of the source in `sources`.
    var source: UInt32
  }

  /// Fewer bytes than any row of a table file takes: `{"crc":"…","row":{…}},` with the
  /// members an entry always has is over 90.
  private static let fewestBytesARow = 64

  /// A file time no entry has: the table's file times lie within years 0000–9999.
  static let noFileTime = Int64.min

  private(set) var rows: [Row] = []
  /// The distinct sources, in the order first met.
  private(set) var sources: [String] = []

  /// The distinct sources' positions in `sources`, and the last one met.
  private var positions: [String: UInt32] = [:]
  private var last: (source: String, position: UInt32)?

  /// An empty log, added to by `append`.
  init() {}

  /// The log of `store`, read from its table file; nil when the log cannot be read that way
  /// (`Store.forEachRowInFile`: it was read already, or changed since its file was written),
  /// or has a number or source count that does not fit in 32 bits.
  init?(_ store: Store) throws(StoreError) {
    var fits = true
    // Room for every row at once, at the fewest bytes a row of the file takes: the array
    // that doubled as it grew held the old and the new rows at once (48 MB for a million,
    // where the rows take 32), and the pages of the room not used are never touched, so
    // they take no memory.
    var room = 0
    let read = try store.forEachRowInFile(EntryCodec.self, sizing: { room = $0 }) { entry in
      if rows.isEmpty { rows.reserveCapacity(room / Self.fewestBytesARow) }
      if fits { fits = append(entry) }
    }
    guard read, fits else { return nil }
  }

  /// Adds `entry` after the entries held (its number greater than theirs); false, adding
  /// nothing, when its number or the count of sources does not fit in 32 bits.
  mutating func append(_ entry: Entry) -> Bool {
    append(
      id: entry.id, instant: entry.instant, fileTime: entry.fileTime,
      kilograms: entry.kilograms, source: entry.source)
  }

  /// Adds the entry of these fields, as `append(_:)`.
  mutating func append(
    id: Int, instant: Int64, fileTime: Int64?, kilograms: Double, source name: String
  ) -> Bool {
    guard let id = UInt32(exactly: id) else { return false }
    let source: UInt32
    // Most logs have one source a long run of entries: compared with the last first.
    if let last, last.source == name {
      source = last.position
    } else if let known = positions[name] {
      source = known
      last = (name, known)
    } else {
      guard let next = UInt32(exactly: sources.count) else { return false }
      sources.append(name)
      positions[name] = next
      source = next
      last = (name, next)
    }
    rows.append(
      Row(
        instant: instant, fileTime: fileTime ?? Self.noFileTime, kilograms: kilograms, id: id,
        source: source))
    return true
  }

  var count: Int { rows.count }
  func id(at position: Int) -> Int { Int(rows[position].id) }  // checked: UInt32 to Int widens
  func instant(at position: Int) -> Int64 { rows[position].instant }
  func fileTime(at position: Int) -> Int64? {
    let fileTime = rows[position].fileTime
    return fileTime == Self.noFileTime ? nil : fileTime
  }
  func kilograms(at position: Int) -> Double { rows[position].kilograms }
  func matches(at position: Int, source: String, kilograms: Double) -> Bool {
    abs(rows[position].kilograms - kilograms) <= 1e-9
      // checked: UInt32 to Int widens
      && sources[Int(rows[position].source)] == source
  }
}
