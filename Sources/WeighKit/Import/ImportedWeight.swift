/// One weight read from a file, before the app decides whether it is new.
///
/// Every weight read is held until the import commits, so a weight is kept small: 64 bytes
/// (`MemoryLayout<ImportedWeight>.stride`, pinned by `EntryLayoutTests`; 80 before). The
/// fields of weigh's own files (number, revision, origin) are kept in place of the file time
/// they never have, the rare ones (note, Health UUIDs, pushed revision) in one side box;
/// ``entry`` is made from them when asked, not held per weight.
public struct ImportedWeight: Sendable {
  /// The moment, in seconds since 1970 UTC.
  public var instant: Int64
  /// The weight in kilograms, converted with exact factors.
  public var kilograms: Double
  /// The source name (`Health Mate`, `Withings`, `openScale`, `Aria`).
  public var source: String
  /// The 1-based line the row or record starts on.
  public var line: Int
  /// The note and, for weigh's own files, the entry's rare fields; nil when all are nil.
  private var extras: Extras?
  /// The file time of a vendor's row, or the entry's own fields for weigh's files.
  private var kind: Kind

  /// What a weight is, besides its moment, weight, source and line.
  private enum Kind: Equatable, Sendable {
    /// A vendor's row, with the wall-clock time its file wrote when the file names no zone.
    case vendor(fileTime: Int64?)
    /// A row of weigh's own file: the entry's number as written (which may lie outside the
    /// entry numbers: the import then gives a new one), its revision and origin.
    case weigh(number: Int, revision: Int32, origin: Origin)
  }

  /// The fields few weights have, behind one reference (immutable; a change makes a new one).
  private final class Extras: Sendable {
    let note: String?
    let healthUUID: String?
    let pushedUUID: String?
    let pushedRevision: Int32?
    /// A weigh row's `fileTime` (weigh's files have none; kept for weights made by hand).
    let fileTime: Int64?
    /// An entry that differs from the weight in its moment, weight, source, note or file
    /// time, kept whole (weigh's readers never make one).
    let entry: Entry?

    init(
      note: String?, healthUUID: String? = nil, pushedUUID: String? = nil,
      pushedRevision: Int32? = nil, fileTime: Int64? = nil, entry: Entry? = nil
    ) {
      self.note = note
      self.healthUUID = healthUUID
      self.pushedUUID = pushedUUID
      self.pushedRevision = pushedRevision
      self.fileTime = fileTime
      self.entry = entry
    }

    /// Nil when every field is nil.
    static func make(
      note: String?, healthUUID: String? = nil, pushedUUID: String? = nil,
      pushedRevision: Int32? = nil, fileTime: Int64? = nil, entry: Entry? = nil
    ) -> Extras? {
      if note == nil, healthUUID == nil, pushedUUID == nil, pushedRevision == nil,
        fileTime == nil, entry == nil
      {
        return nil
      }
      return Extras(
        note: note, healthUUID: healthUUID, pushedUUID: pushedUUID,
        pushedRevision: pushedRevision, fileTime: fileTime, entry: entry)
    }
  }

  /// The row's comment, if the format has one.
  public var note: String? {
    get { extras?.note }
    set {
      let old = extras
      extras = Extras.make(
        note: newValue, healthUUID: old?.healthUUID, pushedUUID: old?.pushedUUID,
        pushedRevision: old?.pushedRevision, fileTime: old?.fileTime, entry: old?.entry)
    }
  }

  /// The wall-clock time the file wrote, as seconds since 1970 read as if UTC, when the
  /// format names no zone (see `Entry.fileTime`).
  public var fileTime: Int64? {
    get {
      switch kind {
      case .vendor(let fileTime): fileTime
      case .weigh: extras?.fileTime
      }
    }
    set {
      switch kind {
      case .vendor: kind = .vendor(fileTime: newValue)
      case .weigh:
        let old = extras
        extras = Extras.make(
          note: old?.note, healthUUID: old?.healthUUID, pushedUUID: old?.pushedUUID,
          pushedRevision: old?.pushedRevision, fileTime: newValue, entry: old?.entry)
      }
    }
  }

  /// The whole entry, when the file is weigh's own export (which keeps everything). A
  /// number outside ``ValueLimits/entryNumber`` reads as 0 here (the import numbers the
  /// entry anew); ``number`` has it as written.
  public var entry: Entry? {
    get {
      if let entry = extras?.entry { return entry }
      guard case .weigh(let number, let revision, let origin) = kind else { return nil }
      let pushedRevision = extras?.pushedRevision.map { Int($0) }  // checked: Int32 to Int widens
      return Entry(
        id: Entry.isValidNumber(number) ? number : 0, instant: instant, kilograms: kilograms,
        // checked: Int32 to Int widens
        origin: origin, source: source, note: note, revision: Int(revision),
        healthUUID: extras?.healthUUID, pushedUUID: extras?.pushedUUID,
        pushedRevision: pushedRevision)
    }
    set { setEntry(newValue, number: newValue?.id) }
  }

  /// True for a vendor's row (not weigh's own, and not made with a whole entry).
  var isVendorRow: Bool {
    guard case .vendor = kind else { return false }
    return extras?.entry == nil
  }

  /// The entry's number as the file wrote it (weigh's own files); nil for a vendor's row.
  var number: Int? {
    if case .weigh(let number, _, _) = kind { return number }
    return extras?.entry?.id
  }

  /// A weight read from a file.
  public init(
    instant: Int64, kilograms: Double, source: String, note: String? = nil, line: Int,
    entry: Entry? = nil, fileTime: Int64? = nil
  ) {
    self.init(
      vendorRow: instant, kilograms: kilograms, source: source, note: note, line: line,
      fileTime: fileTime)
    if entry != nil { setEntry(entry, number: entry?.id) }
    self.fileTime = fileTime
  }

  /// A vendor's row: ``init(instant:kilograms:source:note:line:entry:fileTime:)`` without an
  /// entry, made without passing and destroying one (about 150 instructions a CSV row under
  /// callgrind).
  init(
    vendorRow instant: Int64, kilograms: Double, source: String, note: String?, line: Int,
    fileTime: Int64?
  ) {
    self.instant = instant
    self.kilograms = kilograms
    self.source = source
    self.line = line
    // Without `Extras.make`'s defaulted arguments, whose nil `Entry?` was made and destroyed
    // out of line for every row (62 instructions a CSV row, callgrind, wfit12).
    if let note { self.extras = Extras(note: note) } else { self.extras = nil }
    self.kind = .vendor(fileTime: fileTime)
  }

  /// A row of weigh's own file, whose entry has this weight's moment, weight, source and
  /// note; `number` as written (see ``number``).
  init(
    weighEntry number: Int, instant: Int64, kilograms: Double, origin: Origin, source: String,
    note: String?, revision: Int32, healthUUID: String?, pushedUUID: String?,
    pushedRevision: Int32?, line: Int
  ) {
    self.instant = instant
    self.kilograms = kilograms
    self.source = source
    self.line = line
    self.extras = Extras.make(
      note: note, healthUUID: healthUUID, pushedUUID: pushedUUID, pushedRevision: pushedRevision)
    self.kind = .weigh(number: number, revision: revision, origin: origin)
  }

  /// Keeps `entry` in the weight's own fields when it agrees with them, else whole.
  private mutating func setEntry(_ entry: Entry?, number: Int?) {
    let fileTime = self.fileTime
    let note = self.note
    guard let entry, let number else {
      kind = .vendor(fileTime: fileTime)
      extras = Extras.make(note: note)
      return
    }
    let fits =
      entry.instant == instant && entry.kilograms.bitPattern == kilograms.bitPattern
      && entry.source == source && entry.note == note && entry.fileTime == nil
    guard fits, let revision = Int32(exactly: entry.revision) else {
      kind = .vendor(fileTime: fileTime)
      extras = Extras.make(note: note, fileTime: nil, entry: entry)
      return
    }
    kind = .weigh(number: number, revision: revision, origin: entry.origin)
    extras = Extras.make(
      note: note, healthUUID: entry.healthUUID, pushedUUID: entry.pushedUUID,
      pushedRevision: entry.pushedRevision.flatMap { Int32(exactly: $0) }, fileTime: fileTime)
  }

  /// Weights above this are rejected (Health Connect's limit; the heaviest person recorded
  /// weighed about 635 kg).
  public static let maximumKilograms = ValueLimits.kilograms.upperBound

  /// Checks a converted weight; the reason names the unit it was written in.
  static func validate(
    kilograms: Double, written text: @autoclosure () -> String, unit: MassUnit, line: Int
  ) throws(ImportRejection) -> Double {
    guard Measure.mass.contains(kilograms) else {
      throw ImportRejection(
        line: line,
        reason:
          "weight \(text()) \(unit.rawValue) is outside 0–1000 kg; check the value and its unit"
      )
    }
    return kilograms
  }
}

extension ImportedWeight: Equatable {
  /// Equal when every public field is.
  public static func == (a: ImportedWeight, b: ImportedWeight) -> Bool {
    a.instant == b.instant && a.kilograms == b.kilograms && a.source == b.source
      && a.line == b.line && a.note == b.note && a.fileTime == b.fileTime
      && a.number == b.number && a.entry == b.entry
  }
}

/// What an importer read from one file: weights to add, and rows it did not take.
public struct WeightImportResult: Equatable, Sendable {
  /// The format the file was read as.
  public var format: ImportFormat
  /// The weights, in file order, without in-file duplicates.
  public var weights: [ImportedWeight] {
    get { Array(read) }
    set { read = ImportedWeights(newValue) }
  }
  /// The same weights as they are held: in blocks, which `ImportPlan` frees one by one.
  var read = ImportedWeights()
  /// Rows or records that were not taken, with line and reason.
  public var rejections: [ImportRejection]
  /// Rows that repeat an earlier row of the same file (same moment, weight and source).
  public var duplicatesInFile: Int
  /// Said when the format does not name its unit and the importer used the format's
  /// documented one (openScale 3.x: kg; Fitbit: lb).
  public var unitNote: String?
  /// The settings weigh's own JSON carries, when it does.
  public var settings: ExportedSettings?
  /// Body-mass records taken (not rejected) whose tag had attribute names with spaces
  /// (a defect of 2015 exports); the Health types count theirs in `HealthImportPlan`.
  public var repairedRecords = 0
  /// Whether the header was one quoted field holding the columns (`CSVRow.unwrapped`).
  public var headerUnwrapped = false
  /// Whether the file had no header: its first line held a date and a weight in the columns
  /// named by number, so it was read as a row (a CSV of your own only).
  public var firstLineWasRow = false
  /// Whether the file's times name no zone, so they were read in the session's zone.
  public var zoneless = false
  /// Which of several weight columns was read, and how to read another (a CSV of your own).
  public var weightColumnNote: String?
  /// Which column was read as the date when none is named so, and how to read another (a
  /// CSV of your own headed `Start,Finish`).
  public var dateColumnNote: String?
  /// Which source a CSV of your own whose header could be an app's gave its entries, and how
  /// to name another.
  public var sourceNote: String?
  /// Rows taken whose moment lies within `Self.epochReach` of 1970-01-01 00:00 UTC, the
  /// time 0 apps write for a date they do not have, and the first one's line and date as
  /// written: imported, and said.
  public var nearEpochRows = 0
  /// Weights read with a decimal comma (a CSV of your own), and the first as written.
  public var decimalCommaRows = 0
  public var firstDecimalComma: String?
  public var firstNearEpoch: (line: Int, date: String)?
  /// How near to time 0 a row's moment is said: more than any zone's offset from UTC.
  static let epochReach: Int64 = 15 * 3600

  /// An import result.
  public init(
    format: ImportFormat, weights: [ImportedWeight] = [], rejections: [ImportRejection] = [],
    duplicatesInFile: Int = 0, unitNote: String? = nil
  ) {
    self.format = format
    self.read = ImportedWeights(weights)
    self.rejections = rejections
    self.duplicatesInFile = duplicatesInFile
    self.unitNote = unitNote
  }

  /// Where the weights go as they are read, when the import streams them
  /// (`ImportedWeightSpill`, set around the reader's call); nil otherwise.
  private let spill = ImportedWeightSpill.current

  /// Equal when every field but the spill is.
  public static func == (a: WeightImportResult, b: WeightImportResult) -> Bool {
    a.format == b.format && a.read == b.read && a.rejections == b.rejections
      && a.duplicatesInFile == b.duplicatesInFile && a.unitNote == b.unitNote
      && a.settings == b.settings && a.repairedRecords == b.repairedRecords
      && a.zoneless == b.zoneless
  }

  /// Adds `weight` unless the file already had one at the same moment, weight and source.
  @inline(__always)
  mutating func add(_ weight: consuming ImportedWeight, seen: inout WeightKeySet) {
    if let spill, spill.state != .off {
      // Weights handed on are gone: past them, one out of the order the spill needs ends
      // the read (the import reads the file again the usual way); before, the spill is
      // only turned off.
      guard spill.state == .on else { return }
      if !seen.staysInOrder(with: weight) {
        spill.leaveOrder()
        guard spill.state != .stopped else { return }
      }
    }
    if seen.insert(weight, position: read.count, among: read) {
      read.append(consume weight)
      // A block is full once every 16,384 weights.
      if read.count & (ImportedWeights.blockSize - 1) == 0, let spill, spill.state == .on {
        spill.offerBlocks(of: &read)
      }
    } else {
      duplicatesInFile += 1
    }
  }
}

/// Takes the weights a reader keeps, a block at a time, as the file is read, for an import
/// that streams them into the store (`ImportStream`): the reader then holds two blocks at
/// most, not every weight. Only while the file's weights come in the order of their key's
/// moment (`WeightKeySet`'s fast path, which looks back a few weights only) and `take`
/// accepts each block. Out of that before any block was taken, the spill is turned off and
/// the reader keeps every weight as usual; after, it stops, the rest of the file is not
/// kept, and the caller reads the file again without a spill.
///
/// Set for the reader's call with `ImportedWeightSpill.$current.withValue(spill) { … }`:
/// every reader makes its `WeightImportResult` itself, and takes it from there. Unchecked
/// `Sendable`: the reader, the spill and its `take` run on one thread. An export read on a
/// thread of its own (`HealthImportPlan.read`) has a spill of its own there that hands its
/// blocks over to the command's thread, where they come to the command's spill
/// (`take(handed:)`, then `follow(_:)`).
final class ImportedWeightSpill: @unchecked Sendable {
  /// The spill of the import being read on this thread, if any.
  @TaskLocal static var current: ImportedWeightSpill?

  enum State {
    /// Blocks are handed on.
    case on
    /// Turned off before any block was handed on: the reader keeps every weight.
    case off
    /// Ended after blocks were handed on: the reader's weights are incomplete.
    case stopped
  }

  /// Given each full block of weights in file order; returns false to refuse it (the
  /// block then stays with the reader).
  private let take: ([ImportedWeight]) -> Bool
  // Unchecked: read for every weight a reader keeps, where the dynamic exclusivity checks
  // of a class's stored properties cost more than the read. No method of this class calls
  // out while it accesses them but `offer`, whose `take` does not reach this object.
  /// Blocks handed on so far.
  @exclusivity(unchecked) private(set) var blocksTaken = 0
  @exclusivity(unchecked) private(set) var state = State.on

  init(take: @escaping ([ImportedWeight]) -> Bool) {
    self.take = take
  }

  /// A weight came out of the order the spill needs.
  func leaveOrder() { state = blocksTaken == 0 ? .off : .stopped }

  /// Takes a block that a spill on the reader's thread handed on (`HealthImportPlan.read`):
  /// the reader no longer holds it, so a block refused stops this spill (the file must be
  /// read again), and blocks after that are dropped.
  func take(handed block: [ImportedWeight]) {
    guard state == .on else { return }
    if take(block) { blocksTaken += 1 } else { state = .stopped }
  }

  /// Ends as the reader's spill ended, once every block it handed on was taken here: turned
  /// off before any (the reader kept every weight), or stopped after some.
  func follow(_ reader: State) {
    if state == .on, reader != .on { leaveOrder() }
  }

  /// Hands on every full block but the last (the in-file duplicate check looks back at most
  /// `WeightKeySet.longestRun` weights).
  func offerBlocks(of weights: inout ImportedWeights) {
    guard weights.count & (ImportedWeights.blockSize - 1) == 0 else { return }
    let full = weights.count >> ImportedWeights.blockShift
    while state == .on, blocksTaken < full - 1 { offer(&weights) }
  }

  /// Hands on the blocks not handed on yet, when the reader is done (the file ended well);
  /// returns the state then.
  func takeRest(of weights: inout ImportedWeights) -> State {
    while state == .on, blocksTaken < weights.blocks.count { offer(&weights) }
    return state
  }

  private func offer(_ weights: inout ImportedWeights) {
    guard take(weights.blocks[blocksTaken]) else {
      leaveOrder()
      return
    }
    _ = weights.takeBlock(blocksTaken)
    blocksTaken += 1
  }
}

/// The in-file duplicate key: moment, exact weight and source (and entry number, for
/// weigh's own files, whose distinct entries may share all three).
struct WeightKey: Equatable {
  var instant: Int64
  var bits: UInt64
  var source: String
  var id: Int?

  init(_ weight: ImportedWeight) {
    instant = weight.fileTime ?? weight.instant
    bits = weight.kilograms.bitPattern
    source = weight.source
    id = weight.number
  }

  /// Moment, weight and number only: a file's rows mostly share one source, and hashing its
  /// text for every row cost a tenth of a CSV import. Equal keys still hash equally.
  var mixedHash: UInt64 { Self.mix(instant: instant, bits: bits, id: id) }

  /// The ``mixedHash`` of `weight`'s key, without making the key (and retaining its source).
  static func mixedHash(of weight: borrowing ImportedWeight) -> UInt64 {
    mix(
      instant: weight.fileTime ?? weight.instant, bits: weight.kilograms.bitPattern,
      id: weight.number)
  }

  /// Whether two weights have equal keys, compared without making them.
  static func same(_ a: borrowing ImportedWeight, _ b: borrowing ImportedWeight) -> Bool {
    a.kilograms.bitPattern == b.kilograms.bitPattern
      && (a.fileTime ?? a.instant) == (b.fileTime ?? b.instant) && a.number == b.number
      && a.source == b.source
  }

  private static func mix(instant: Int64, bits: UInt64, id: Int?) -> UInt64 {
    // A multiplicative mix (splitmix64's finalizer) of the three; not Hasher, whose
    // per-row setup cost more than the rest of the look-up.
    var x = UInt64(bitPattern: instant) &* 0x9E37_79B9_7F4A_7C15 ^ bits
    x ^= UInt64(bitPattern: Int64(truncatingIfNeeded: id ?? -1)) &* 0xC2B2_AE3D_27D4_EB4F
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return x ^ (x >> 31)
  }
}

/// The keys of the weights a reader kept (`WeightImportResult.add`), as positions in its
/// `weights` in an open-addressing table: 4 bytes a slot, where a `Set<WeightKey>` held a
/// 48-byte key (about 100 MB of buckets for a million rows, at its load factor). A key is
/// compared with the weight it stands for.
///
/// While the weights come in order of their key's moment (most files: a log written as it
/// grew), no table of every weight is made: a weight later than every one before cannot
/// repeat one, and a weight at the last moment is compared with the few kept at that moment,
/// or, past `longestRun` of them, looked up in a small table of that moment's run
/// (`runSlots`; MyFitnessPal and Google Fit files name a date only, and have hundreds of
/// rows on one). The first weight out of that order (or a run longer than a block of
/// weights, which a streamed import may have handed on) places every weight kept so far in
/// the table, and the table answers from then on. Each probe of the table is a random access
/// into megabytes (the slots, and the weight a slot names): at 200,000 Fitbit logs `insert`
/// took 15 % of the import's time (perf, wfit16), for 1.5 % of its instructions.
struct WeightKeySet {
  /// Position + 1 in the weights (0: empty); a power of two in size, at most half full.
  private var slots: [UInt32] = []
  private var count = 0
  /// How many keys the table is made for when it is made (`init(expected:)`).
  private var expected = 0
  /// True while every weight kept came at or after the moment of the one kept before it.
  private var inOrder = true
  /// The moment of the last weight kept, while `inOrder`.
  private var lastMoment = Int64.min
  /// How many weights kept last share `lastMoment`, while `inOrder`.
  private var atLastMoment = 0
  /// The positions of the run at `lastMoment` (position + 1), once it is longer than
  /// `longestRun`: a power of two in size, at most half full. A slot holding a position
  /// before the run's first is empty (left by an earlier run), so moving on clears nothing.
  /// A new store's import of 4,000,000 MyFitnessPal rows (about 300 a date) held every weight
  /// once a run passed 8 and peaked at 300 MiB; with this table it streams, at 31 MiB
  /// (Google Fit the same); 100,000 rows 442.0 M instructions before, 409.1 M after
  /// (callgrind, wrun18).
  private var runSlots: [UInt32] = []

  /// The most weights kept at one moment that are compared one by one, while in order.
  private static let longestRun = 8
  /// The most weights kept at one moment while in order: a streamed import keeps the last
  /// full block of weights and the one being filled (`ImportedWeightSpill.offerBlocks`), so
  /// a run of at most a block is all there to compare with.
  static let longestKeptRun = ImportedWeights.blockSize

  init() {}

  /// Whether recording `weight` next leaves the set on its fast path (the weights in order
  /// of their key's moment, at most `longestRun` at one moment), where it looks back at the
  /// last few weights only.
  func staysInOrder(with weight: borrowing ImportedWeight) -> Bool {
    guard inOrder else { return false }
    let moment = weight.fileTime ?? weight.instant
    return moment > lastMoment || (moment == lastMoment && atLastMoment < Self.longestKeptRun)
  }

  /// An empty set with room for `expected` keys made at once (at most 2^21 of them), for a
  /// reader that can tell from a file's length about how many rows it holds: growing the
  /// table row by row placed every key again at each doubling, 10.9 M instructions at
  /// 100,000 Fitbit logs (callgrind, wfit13). The table is made only when a weight comes
  /// out of order.
  init(expected: Int) {
    self.expected = min(max(expected, 0), 1 << 21)
  }

  /// Records the weight at `position` of `weights` (about to be appended there; every
  /// weight recorded before is in `weights`, in the order recorded) unless an equal key is
  /// already recorded; returns whether it was recorded.
  mutating func insert(
    _ weight: borrowing ImportedWeight, position: Int, among weights: ImportedWeights
  ) -> Bool {
    if inOrder {
      let moment = weight.fileTime ?? weight.instant
      if moment > lastMoment {
        lastMoment = moment
        atLastMoment = 1
        return true
      }
      if moment == lastMoment, atLastMoment < Self.longestRun {
        // Only the weights kept last can have this moment.
        for back in 1...atLastMoment where weights.hasKey(at: position - back, of: weight) {
          return false
        }
        atLastMoment += 1
        return true
      }
      if moment == lastMoment, atLastMoment < Self.longestKeptRun {
        guard insertInRun(weight, position: position, among: weights) else { return false }
        atLastMoment += 1
        return true
      }
      inOrder = false
      runSlots = []
      placeAll(weights, upTo: position)
    }
    if (count + 1) * 2 > slots.count { grow(weights) }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: WeightKey.mixedHash(of: weight)) & mask
    while slots[slot] != 0 {
      // checked: UInt32 to Int widens
      if weights.hasKey(at: Int(slots[slot]) - 1, of: weight) { return false }
      slot = (slot + 1) & mask
    }
    // Positions past UInt32 cannot occur: a file of 4 billion weights does not fit in memory.
    guard let stored = UInt32(exactly: position + 1) else { return true }
    slots[slot] = stored
    count += 1
    return true
  }

  /// Records the weight at `position` in the run at `lastMoment` (`atLastMoment` weights,
  /// the last kept, more than `longestRun`) unless the run has its key; returns whether it
  /// was recorded.
  private mutating func insertInRun(
    _ weight: borrowing ImportedWeight, position: Int, among weights: ImportedWeights
  ) -> Bool {
    // Positions past UInt32 cannot occur, as in `insert`.
    guard let stored = UInt32(exactly: position + 1) else { return true }
    let first = stored - UInt32(truncatingIfNeeded: atLastMoment)
    // The run's first `longestRun` weights were compared one by one: placed now.
    if atLastMoment == Self.longestRun || (atLastMoment + 1) * 2 > runSlots.count {
      placeRun(from: first, upTo: stored, among: weights)
    }
    let mask = runSlots.count - 1
    var slot = Int(truncatingIfNeeded: WeightKey.mixedHash(of: weight)) & mask
    while runSlots[slot] >= first {
      // checked: UInt32 to Int widens
      if weights.hasKey(at: Int(runSlots[slot]) - 1, of: weight) { return false }
      slot = (slot + 1) & mask
    }
    runSlots[slot] = stored
    return true
  }

  /// Places the run's positions `first..<end` (each + 1) in `runSlots`, made again (at least
  /// 64 slots, at most half full with the next weight) when it is too small; else among the
  /// places earlier runs left, which are empty to this one.
  private mutating func placeRun(
    from first: UInt32, upTo end: UInt32, among weights: ImportedWeights
  ) {
    // checked: UInt32 to Int widens
    let wanted = (Int(end - first) + 1) * 2
    if runSlots.count < wanted {
      var size = max(64, runSlots.count)
      while size < wanted { size *= 2 }
      runSlots = Array(repeating: 0, count: size)
    }
    let mask = runSlots.count - 1
    for stored in first..<end {
      // checked: UInt32 to Int widens
      var slot = weights.mixedHash(at: Int(stored) - 1) & mask
      while runSlots[slot] >= first { slot = (slot + 1) & mask }
      runSlots[slot] = stored
    }
  }

  /// Makes the table, with room for `expected` keys or twice the weights kept so far, and
  /// places the first `end` weights (all distinct: each was checked as it was kept).
  private mutating func placeAll(_ weights: ImportedWeights, upTo end: Int) {
    let wanted = max(expected, end + 1) * 2
    var size = 1024
    while size < wanted { size *= 2 }
    slots = Array(repeating: 0, count: size)
    let mask = size - 1
    for position in 0..<end {
      // Positions past UInt32 cannot occur, as in `insert`.
      guard let stored = UInt32(exactly: position + 1) else { break }
      var slot = weights.mixedHash(at: position) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = stored
    }
    count = end
  }

  /// Doubles the table (at least 1,024 slots) and places every recorded position again.
  private mutating func grow(_ weights: ImportedWeights) {
    let old = slots
    slots = Array(repeating: 0, count: max(1024, old.count * 2))
    let mask = slots.count - 1
    for stored in old where stored != 0 {
      // checked: UInt32 to Int widens
      var slot = weights.mixedHash(at: Int(stored) - 1) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = stored
    }
  }
}

/// The weights a reader keeps, in blocks of 16,384 (1 MiB): no block is copied as more come,
/// where one array doubled (holding the old and the new, 1.5 times the weights, as it
/// grew), and `ImportPlan` frees each block once it has made its entries.
struct ImportedWeights: RandomAccessCollection, Equatable, Sendable {
  /// Weights per block: a power of two, so a position splits with a shift and a mask.
  static let blockShift = 14
  static let blockSize = 1 << blockShift

  /// Every block full but the last.
  private(set) var blocks: [[ImportedWeight]] = []
  private(set) var count = 0

  init() {}

  init(_ weights: [ImportedWeight]) {
    for weight in weights { append(weight) }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> ImportedWeight {
    blocks[position >> Self.blockShift][position & (Self.blockSize - 1)]
  }

  /// Whether the weight at `position` has `weight`'s key, read in place (a weight copied out
  /// of its block retained its strings).
  func hasKey(at position: Int, of weight: borrowing ImportedWeight) -> Bool {
    WeightKey.same(blocks[position >> Self.blockShift][position & (Self.blockSize - 1)], weight)
  }

  /// The key hash of the weight at `position`, read in place.
  func mixedHash(at position: Int) -> Int {
    // checked: a hash's bits, truncated on purpose (only the low ones pick a slot)
    Int(
      truncatingIfNeeded: WeightKey.mixedHash(
        of: blocks[position >> Self.blockShift][position & (Self.blockSize - 1)]))
  }

  mutating func append(_ weight: consuming ImportedWeight) {
    if count & (Self.blockSize - 1) == 0 {
      var block: [ImportedWeight] = []
      // The first block grows as a small file needs; the next ones are made whole.
      if count > 0 { block.reserveCapacity(Self.blockSize) }
      blocks.append(block)
    }
    blocks[blocks.count - 1].append(weight)
    count += 1
  }

  /// Takes block `index` out (its weights stay counted): the caller frees it when done.
  mutating func takeBlock(_ index: Int) -> [ImportedWeight] {
    let block = blocks[index]
    blocks[index] = []
    return block
  }

  static func == (a: ImportedWeights, b: ImportedWeights) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }
}
