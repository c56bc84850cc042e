/// One weight read from a file, before the app decides whether it is new.
public struct ImportedWeight: Equatable, Sendable {
  /// The moment, in seconds since 1970 UTC.
  public var instant: Int64
  /// The weight in kilograms, converted with exact factors.
  public var kilograms: Double
  /// The source name (`Health Mate`, `Withings`, `openScale`, `Aria`).
  public var source: String
  /// The row's comment, if the format has one.
  public var note: String?
  /// The 1-based line the row or record starts on.
  public var line: Int
  /// The whole entry, when the file is weigh's own export (which keeps everything).
  public var entry: Entry? {
    get { entryBox?.entry }
    set { entryBox = newValue.map(EntryBox.init) }
  }
  /// The entry, kept apart: every weight read is held until the import commits, and one
  /// from a vendor file (no entry) stays small.
  private var entryBox: EntryBox?
  /// The wall-clock time the file wrote, as seconds since 1970 read as if UTC, when the
  /// format names no zone (see `Entry.fileTime`).
  public var fileTime: Int64?

  /// A weight read from a file.
  public init(
    instant: Int64, kilograms: Double, source: String, note: String? = nil, line: Int,
    entry: Entry? = nil, fileTime: Int64? = nil
  ) {
    self.instant = instant
    self.kilograms = kilograms
    self.source = source
    self.note = note
    self.line = line
    self.entryBox = entry.map(EntryBox.init)
    self.fileTime = fileTime
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

/// An ``Entry`` behind a reference (see ``ImportedWeight/entry``).
final class EntryBox: Equatable, Sendable {
  let entry: Entry
  init(_ entry: Entry) { self.entry = entry }
  static func == (a: EntryBox, b: EntryBox) -> Bool { a.entry == b.entry }
}

/// What an importer read from one file: weights to add, and rows it did not take.
public struct WeightImportResult: Equatable, Sendable {
  /// The format the file was read as.
  public var format: ImportFormat
  /// The weights, in file order, without in-file duplicates.
  public var weights: [ImportedWeight]
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
  /// Whether the file's times name no zone, so they were read in the session's zone.
  public var zoneless = false

  /// An import result.
  public init(
    format: ImportFormat, weights: [ImportedWeight] = [], rejections: [ImportRejection] = [],
    duplicatesInFile: Int = 0, unitNote: String? = nil
  ) {
    self.format = format
    self.weights = weights
    self.rejections = rejections
    self.duplicatesInFile = duplicatesInFile
    self.unitNote = unitNote
  }

  /// Adds `weight` unless the file already had one at the same moment, weight and source.
  mutating func add(_ weight: ImportedWeight, seen: inout WeightKeySet) {
    if seen.insert(weight, position: weights.count, among: weights) {
      weights.append(weight)
    } else {
      duplicatesInFile += 1
    }
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
    id = weight.entry?.id
  }

  /// Moment, weight and number only: a file's rows mostly share one source, and hashing its
  /// text for every row cost a tenth of a CSV import. Equal keys still hash equally.
  var mixedHash: UInt64 {
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
struct WeightKeySet {
  /// Position + 1 in the weights (0: empty); a power of two in size, at most half full.
  private var slots: [UInt32] = []
  private var count = 0

  init() {}

  /// Records the weight at `position` of `weights` (about to be appended there) unless an
  /// equal key is already recorded; returns whether it was recorded.
  mutating func insert(
    _ weight: ImportedWeight, position: Int, among weights: [ImportedWeight]
  ) -> Bool {
    if (count + 1) * 2 > slots.count { grow(weights) }
    let key = WeightKey(weight)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key.mixedHash) & mask
    while slots[slot] != 0 {
      // checked: UInt32 to Int widens
      if WeightKey(weights[Int(slots[slot]) - 1]) == key { return false }
      slot = (slot + 1) & mask
    }
    // Positions past UInt32 cannot occur: a file of 4 billion weights does not fit in memory.
    guard let stored = UInt32(exactly: position + 1) else { return true }
    slots[slot] = stored
    count += 1
    return true
  }

  /// Doubles the table (at least 1,024 slots) and places every recorded position again.
  private mutating func grow(_ weights: [ImportedWeight]) {
    let old = slots
    slots = Array(repeating: 0, count: max(1024, old.count * 2))
    let mask = slots.count - 1
    for stored in old where stored != 0 {
      // checked: UInt32 to Int widens
      var slot = Int(truncatingIfNeeded: WeightKey(weights[Int(stored) - 1]).mixedHash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = stored
    }
  }
}
