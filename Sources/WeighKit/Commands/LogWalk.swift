/// A re-import's look-up of the log walked once beside the file, holding only the entries
/// near the moments of the block of weights being checked (issue 14 item 9: memory whatever
/// the log's size): `PresenceClaims`' answers, for the common case only, and no answer
/// (false, then the caller looks the log up the usual way) otherwise.
///
/// The common case: the log's entries, in number order (as `entries.json` has them), come
/// at non-decreasing instants (every import numbers its entries in time order; an edit that
/// moves an entry back breaks it), and no entry's file time lies more than `widestOffset`
/// from its instant. A weight may claim an entry at its instant, or at its file time; the
/// entry then lies within `widestOffset` of the file time. So every entry a block's weights
/// could claim has its instant within the block's moments widened by `widestOffset`: the
/// walk reads the log up to there, and drops the entries before the block's moments less
/// `widestOffset` (a later block that reaches before what was dropped gets no answer). The
/// entries held are looked up as `PresenceIndex` looks the whole log up (by moment, the
/// first in number order that matches), and each is claimed once, by the first weight in
/// file order: the claims are `PresenceClaims.claim`'s.
///
/// For vendor rows only (no entry number: weigh's own files claim by number first, and
/// their plan needs every number in use).
///
/// Measured (rbnd19, docs/performance.md): a re-import of 4,000,000 Withings rows into the
/// store their first import made peaked at 221 MB with the whole log held (`CompactLog`
/// and its two tables: 48 bytes an entry) and at 44 MB walked, as at 1,000,000 rows; CPU
/// 0.99 of before (1,000,000 rows, farm-bench).
struct LogWalk {
  /// One entry's fields, as `CompactLog.Row`, and whether a weight claimed it.
  private struct Row {
    var instant: Int64
    /// `CompactLog.noFileTime` when the entry has none.
    var fileTime: Int64
    var kilograms: Double
    /// The position of the source in `sources`.
    var source: UInt32
    var claimed = false
  }

  /// The farthest an entry's file time may lie from its instant for the walk to answer:
  /// more than any zone's offset (at most 14 h today; some local mean times of the 19th
  /// century passed 15 h), in seconds.
  static let widestOffset: Int64 = 36 * 3600

  private let cursor: TableFile<EntryCodec>.Cursor
  /// The entries held, in number order; those before `start` are dropped.
  private var rows: [Row] = []
  private var start = 0
  /// The position in the log of `rows[0]`.
  private var base = 0
  /// The next entry, read but after the moments of the blocks so far.
  private var ahead: Row?
  private var sources: [String] = []
  private var sourcePositions: [String: UInt32] = [:]
  private var lastSource: (name: String, position: UInt32)?
  private var byInstant = MomentTable()
  private var byFileTime = MomentTable()
  /// Entries before this instant may have been dropped.
  private var droppedBefore = Int64.min
  private var lastInstant = Int64.min
  /// How many entries were read, and the largest number among them.
  private(set) var count = 0
  private(set) var largestID = 0
  /// Set once the log was found out of the walk's case (or unreadable): no more answers.
  private(set) var refused = false

  /// A walk of the log `cursor` reads; nil when the log has no entries or its first entry is
  /// out of the walk's case.
  init?(_ cursor: TableFile<EntryCodec>.Cursor) {
    self.cursor = cursor
    guard let first = readRow() else { return nil }
    ahead = first
  }

  /// Looks up each weight of `weights` (a block, in file order), keeping those not found;
  /// false, claiming nothing, when the walk cannot answer for them (the caller then looks
  /// the log up the usual way).
  mutating func check(
    _ weights: UnsafeBufferPointer<ImportedWeight>, keeping kept: inout ImportedWeights,
    present: inout Int
  ) -> Bool {
    guard !refused, let (low, high) = Self.moments(of: weights), low >= droppedBefore else {
      refused = true
      return false
    }
    let firstNew = rows.count
    while true {
      if ahead == nil { ahead = readRow() }
      guard let row = ahead, row.instant <= high else { break }
      ahead = nil
      rows.append(row)
    }
    guard !refused else { return false }
    index(from: firstNew)
    drop(before: low - Self.widestOffset)
    for index in weights.indices {
      // Read in place, as `ReimportCheck.check`.
      let weight = weights.baseAddress.unsafelyUnwrapped + index
      if claim(weight.pointee) {
        present += 1
      } else {
        kept.append(weight.pointee)
      }
    }
    return true
  }

  /// Reads the rest of the log (checking that it stays in the walk's case: else no claim
  /// made was sure); false when it does not.
  mutating func finish() -> Bool {
    guard !refused else { return false }
    ahead = nil
    while readRow() != nil {}
    return !refused
  }

  /// The lowest and highest instant an entry a weight of `weights` could claim may have;
  /// nil when one is not a vendor row.
  private static func moments(of weights: UnsafeBufferPointer<ImportedWeight>) -> (
    Int64, Int64
  )? {
    var low = Int64.max
    var high = Int64.min
    for index in weights.indices {
      let weight = weights.baseAddress.unsafelyUnwrapped + index
      guard weight.pointee.isVendorRow else { return nil }
      low = min(low, weight.pointee.instant)
      high = max(high, weight.pointee.instant)
      // File times lie within years 0000–9999: the offsets stay far from overflow.
      if let fileTime = weight.pointee.fileTime {
        low = min(low, fileTime - widestOffset)
        high = max(high, fileTime + widestOffset)
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// The next entry of the log, nil at its end or when it is out of the walk's case
  /// (`refused` then set).
  private mutating func readRow() -> Row? {
    guard !refused else { return nil }
    let next: Entry?
    do {
      next = try cursor.next()
    } catch {
      // The usual look-up reports the store's problem.
      refused = true
      return nil
    }
    guard let entry = next else { return nil }
    let fileTime = entry.fileTime ?? CompactLog.noFileTime
    guard entry.instant >= lastInstant,
      entry.fileTime.map({ abs($0 - entry.instant) <= Self.widestOffset }) ?? true
    else {
      refused = true
      return nil
    }
    lastInstant = entry.instant
    count += 1
    largestID = max(largestID, entry.id)
    let source: UInt32
    // Most logs have one source a long run of entries: compared with the last first.
    if let lastSource, lastSource.name == entry.source {
      source = lastSource.position
    } else if let known = sourcePositions[entry.source] {
      source = known
    } else {
      // checked: fewer sources than entries, which the store numbers within Int32
      source = UInt32(truncatingIfNeeded: sources.count)
      sources.append(entry.source)
      sourcePositions[entry.source] = source
    }
    lastSource = (entry.source, source)
    return Row(
      instant: entry.instant, fileTime: fileTime, kilograms: entry.kilograms, source: source)
  }

  /// Adds the entries held from `first` on to the tables of their moments, in one loop
  /// after the block's entries are read: each insert waits on the load of a random slot,
  /// and inserts one after another wait together (placed as each entry was decoded, the
  /// inserts took a fifth of a Withings re-import, perf).
  private mutating func index(from first: Int) {
    let added = rows.count - first
    guard added > 0 else { return }
    if byInstant.isFull(adding: added) {
      byInstant = rebuilt(by: .instant)
    } else {
      for index in first..<rows.count { byInstant.insert(base + index, rows[index].instant) }
    }
    if byFileTime.isFull(adding: added) {
      byFileTime = rebuilt(by: .fileTime)
    } else {
      for index in first..<rows.count where rows[index].fileTime != CompactLog.noFileTime {
        byFileTime.insert(base + index, rows[index].fileTime)
      }
    }
  }

  /// Drops the entries held before `instant`; the array is moved down once at least half
  /// of it is dropped (the tables keep the dropped positions, skipped, until rebuilt).
  private mutating func drop(before instant: Int64) {
    while start < rows.count, rows[start].instant < instant { start += 1 }
    droppedBefore = max(droppedBefore, instant)
    if start >= 4096, start * 2 >= rows.count {
      rows.removeFirst(start)
      base += start
      start = 0
    }
  }

  /// A table of the entries held by `kind`.
  private func rebuilt(by kind: PresenceMoment) -> MomentTable {
    // Room for 7 times the entries held: rebuilt after 3 times as many more are read.
    var size = 4096
    while size < (rows.count - start) * 8 { size *= 2 }
    var table = MomentTable(size: size)
    for index in start..<rows.count {
      let value = moment(index, kind)
      if value != CompactLog.noFileTime { table.insert(base + index, value) }
    }
    return table
  }

  @inline(__always)
  private func moment(_ index: Int, _ kind: PresenceMoment) -> Int64 {
    switch kind {
    case .instant: rows[index].instant
    case .fileTime: rows[index].fileTime
    }
  }

  /// `PresenceClaims.claim` for a vendor row (no number), over the entries held.
  private mutating func claim(_ weight: borrowing ImportedWeight) -> Bool {
    let (source, kilograms, fileTime) = (weight.source, weight.kilograms, weight.fileTime)
    var found: Int?
    if let fileTime {
      found = first(fileTime, in: byFileTime, by: .fileTime) { index in
        !rows[index].claimed && matches(index, source: source, kilograms: kilograms)
      }
    }
    if found == nil {
      found = first(weight.instant, in: byInstant, by: .instant) { index in
        !rows[index].claimed && matches(index, source: source, kilograms: kilograms)
          && (fileTime == nil || rows[index].fileTime == CompactLog.noFileTime)
      }
    }
    guard let found else { return false }
    rows[found].claimed = true
    return true
  }

  @inline(__always)
  private func matches(_ index: Int, source: String, kilograms: Double) -> Bool {
    abs(rows[index].kilograms - kilograms) <= 1e-9
      // checked: UInt32 to Int widens
      && sources[Int(rows[index].source)] == source
  }

  /// The index in `rows` of the first entry held, in number order, at `value` by `kind`
  /// that `accepts`; nil when none. As `PresenceIndex.first`: linear probing meets the
  /// entries of one moment in the order they were added.
  @inline(__always)
  private func first(
    _ value: Int64, in table: MomentTable, by kind: PresenceMoment, where accepts: (Int) -> Bool
  ) -> Int? {
    guard !table.slots.isEmpty else { return nil }
    let held = base + start
    var slot = table.slot(value)
    while table.slots[slot] != 0 {
      let position = Int(table.slots[slot]) - 1  // checked: UInt32 to Int widens
      if position >= held {
        let index = position - base
        if moment(index, kind) == value, accepts(index) { return index }
      }
      slot = (slot + 1) & table.mask
    }
    return nil
  }
}

extension LogWalk {
  /// What a finished walk tells the plan (`ImportPlan`): the log's size and largest number.
  /// The walk answers for vendor rows only, each checked as the file was read: the plan
  /// then neither looks a weight up again nor keeps a number of the file.
  struct Summary: ImportPlanLog {
    let entryCount: Int
    let largestID: Int

    func numbersInUse(keeping entries: [Entry]) -> NumbersInUse {
      preconditionFailure("a walked log keeps no numbers; the walk takes vendor rows only")
    }

    mutating func claim(_ weight: borrowing ImportedWeight, id: Int?) -> Bool {
      preconditionFailure("every weight was looked up as the file was read")
    }
  }

  /// The summary of a finished walk.
  var summary: Summary { Summary(entryCount: count, largestID: largestID) }
}

/// The positions of the entries a `LogWalk` holds by a moment of theirs, in an
/// open-addressing table as `PresenceIndex`'s (4 bytes a slot, at most half full); dropped
/// entries stay in it until it is rebuilt.
private struct MomentTable {
  /// Position + 1 in the log (0: empty).
  var slots: [UInt32] = []
  var mask = 0
  private var shift: UInt64 = 63
  private var filled = 0
  /// The moment and slot of the last position inserted: the log's entries come in runs of
  /// one moment (hundreds a date in MyFitnessPal's and Google Fit's files), and a run's next
  /// entry is placed past its last, not probed for from the moment's slot again (a probe
  /// through the run for each: a quarter of a Google Fit re-import's time, perf).
  private var last: (moment: Int64, slot: Int)?

  init() {}

  /// A table of `size` slots, a power of two.
  init(size: Int) {
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    // checked: a power of two's bit count, at most 64
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  /// Whether `count` more positions would fill it past half.
  func isFull(adding count: Int) -> Bool { (filled + count) * 2 > slots.count }

  mutating func insert(_ position: Int, _ value: Int64) {
    // Every slot from the moment's to the last one's is taken: none is ever emptied.
    var slot =
      if let last, last.moment == value { (last.slot + 1) & mask } else {
        slot(value)
      }
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    // checked: the log's positions fit in 32 bits (its numbers do, and increase)
    slots[slot] = UInt32(truncatingIfNeeded: position + 1)
    filled += 1
    last = (value, slot)
  }

  /// The slot of `moment`: the top bits of its product with 2^64 / φ (Fibonacci hashing).
  /// With the low bits of that product, mixed as `PresenceIndex` mixes them, the walk's
  /// look-ups took 12.6 % of a 1,000,000-row Withings re-import's samples; 4.6 % with these
  /// (perf).
  func slot(_ moment: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: moment) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }
}
