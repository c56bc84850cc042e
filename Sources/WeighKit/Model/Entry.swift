/// Where an entry of the app's log came from.
public enum Origin: String, CaseIterable, Sendable, Codable {
  /// Typed by the user (`log`).
  case manual
  /// Read from Health by `sync`.
  case health
  /// Read from a file by `import`.
  case `import`
}

/// One weight in the app's log.
///
/// Weights are kept in kilograms and never rounded in storage.
///
/// A log holds every entry in memory, so an entry is kept small: 64 bytes
/// (`MemoryLayout<Entry>.stride`, pinned by `EntryLayoutTests`; 128 before). The fields most
/// entries lack (the note, the two Health UUIDs, the pushed revision) live together in one
/// optional side box, shared between copies and copied when one of them is changed; the
/// number and the revisions, which ``ValueLimits`` keeps inside `Int32` wherever they enter,
/// are stored in 32 bits. The properties and the initializer are those of a plain struct.
public struct Entry: Equatable, Sendable {
  /// The moment of the reading, in seconds since 1970-01-01T00:00:00Z.
  public var instant: Int64
  /// The weight in kilograms.
  public var kilograms: Double
  /// The source name shown by `list` (`weigh` for manual entries).
  public var source: String
  /// The rare fields; nil when all of them are nil.
  private var rare: RareFields?
  /// ``id``, inside ``ValueLimits/entryNumber`` (or 0 for an import's entry not numbered yet).
  private var storedID: Int32
  /// ``revision``, inside ``ValueLimits/revision``.
  private var storedRevision: Int32
  /// For an entry imported from a file whose times name no zone (Withings, openScale,
  /// Fitbit): the wall-clock time the file wrote, as seconds since 1970 read as if UTC.
  /// With the source and weight it identifies the row whatever zone a later import is in.
  public var fileTime: Int64?
  /// Where the entry came from.
  public var origin: Origin

  /// The entry number the user sees (`#12`); never reused.
  ///
  /// Numbers are checked against ``ValueLimits/entryNumber`` (inside `Int32`) where they
  /// enter (the store's codec, `log`, `sync`, `import`); a number outside `Int32` is a
  /// programming error and stops the program.
  public var id: Int {
    get { Int(storedID) }
    set { storedID = Self.narrow(newValue) }
  }

  /// 1 when created, one more at every edit (inside ``ValueLimits/revision``, as ``id``).
  public var revision: Int {
    get { Int(storedRevision) }
    set { storedRevision = Self.narrow(newValue) }
  }

  /// A free note (`note "after run"`).
  public var note: String? {
    get { rare?.values.note }
    set { updateRare { $0.note = newValue } }
  }

  /// The Health sample this entry was read from or linked to (origin `health`, or a
  /// fuzzy-matched entry).
  public var healthUUID: String? {
    get { rare?.values.healthUUID }
    set { updateRare { $0.healthUUID = newValue } }
  }

  /// The Health sample `sync push` wrote for this entry.
  public var pushedUUID: String? {
    get { rare?.values.pushedUUID }
    set { updateRare { $0.pushedUUID = newValue } }
  }

  /// The revision that sample was written with.
  public var pushedRevision: Int? {
    get { rare?.values.pushedRevision.map { Int($0) } }
    set { updateRare { $0.pushedRevision = newValue.map(Self.narrow) } }
  }

  public init(
    id: Int, instant: Int64, kilograms: Double, origin: Origin, source: String,
    note: String? = nil, revision: Int = 1, healthUUID: String? = nil,
    pushedUUID: String? = nil, pushedRevision: Int? = nil, fileTime: Int64? = nil
  ) {
    self.storedID = Self.narrow(id)
    self.instant = instant
    self.kilograms = kilograms
    self.origin = origin
    self.source = source
    self.storedRevision = Self.narrow(revision)
    self.fileTime = fileTime
    // Most entries have none of the rare fields: no box, and nothing gathered to find out.
    if note == nil, healthUUID == nil, pushedUUID == nil, pushedRevision == nil {
      self.rare = nil
    } else {
      self.rare = RareFields(
        RareFields.Values(
          note: note, healthUUID: healthUUID, pushedUUID: pushedUUID,
          pushedRevision: pushedRevision.map(Self.narrow)))
    }
  }

  /// The same fields, the rare ones compared by value (a box is never kept with all of them
  /// nil, but equal fields in two boxes are equal entries).
  public static func == (a: Entry, b: Entry) -> Bool {
    a.storedID == b.storedID && a.instant == b.instant && a.kilograms == b.kilograms
      && a.source == b.source && a.storedRevision == b.storedRevision
      && a.fileTime == b.fileTime && a.origin == b.origin
      && (a.rare === b.rare || a.rare?.values == b.rare?.values)
  }

  /// A number or revision in 32 bits; see ``id``.
  private static func narrow(_ value: Int) -> Int32 {
    guard let narrow = Int32(exactly: value) else {
      preconditionFailure("entry number or revision \(value) is outside Int32")
    }
    return narrow
  }

  /// Changes the rare fields in a box of this entry's own (copy on write).
  private mutating func updateRare(_ change: (inout RareFields.Values) -> Void) {
    var fields = rare?.values ?? RareFields.Values()
    change(&fields)
    rare = fields.isEmpty ? nil : RareFields(fields)
  }
}

/// The fields of an ``Entry`` that most entries lack, behind one reference: immutable, so
/// copies of an entry share it and a change makes a new one.
private final class RareFields: Sendable {
  struct Values: Equatable {
    var note: String?
    var healthUUID: String?
    var pushedUUID: String?
    var pushedRevision: Int32?

    var isEmpty: Bool {
      note == nil && healthUUID == nil && pushedUUID == nil && pushedRevision == nil
    }
  }

  let values: Values

  init(_ values: Values) { self.values = values }
}

extension Entry {
  /// A manual entry Health lacks, or has an older revision of: `sync push` writes it.
  var waitsForPush: Bool {
    origin == .manual && (pushedUUID == nil || (pushedRevision ?? 0) < revision)
  }
}

extension Entry {
  /// The revision that follows `revision`, or nil at the end of ``ValueLimits/revision``.
  public static func revision(after revision: Int) -> Int? {
    let (next, overflow) = revision.addingReportingOverflow(1)
    return !overflow && ValueLimits.revision.contains(next) ? next : nil
  }

  /// Whether `id` may number an entry (``ValueLimits/entryNumber``).
  public static func isValidNumber(_ id: Int) -> Bool { ValueLimits.entryNumber.contains(id) }
}
