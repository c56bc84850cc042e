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
/// The members are declared in the order that packs them best (`origin`, one byte, last:
/// after the optional numbers' one-byte tags, not before an eight-byte member), 128 bytes
/// an entry instead of 136: a log holds every entry in memory.
public struct Entry: Equatable, Sendable {
  /// The entry number the user sees (`#12`); never reused.
  public var id: Int
  /// The moment of the reading, in seconds since 1970-01-01T00:00:00Z.
  public var instant: Int64
  /// The weight in kilograms.
  public var kilograms: Double
  /// The source name shown by `list` (`weigh` for manual entries).
  public var source: String
  /// A free note (`note "after run"`).
  public var note: String?
  /// 1 when created, one more at every edit.
  public var revision: Int
  /// The Health sample this entry was read from or linked to (origin `health`, or a
  /// fuzzy-matched entry).
  public var healthUUID: String?
  /// The Health sample `sync push` wrote for this entry.
  public var pushedUUID: String?
  /// The revision that sample was written with.
  public var pushedRevision: Int?
  /// For an entry imported from a file whose times name no zone (Withings, openScale,
  /// Fitbit): the wall-clock time the file wrote, as seconds since 1970 read as if UTC.
  /// With the source and weight it identifies the row whatever zone a later import is in.
  public var fileTime: Int64?
  /// Where the entry came from.
  public var origin: Origin

  public init(
    id: Int, instant: Int64, kilograms: Double, origin: Origin, source: String,
    note: String? = nil, revision: Int = 1, healthUUID: String? = nil,
    pushedUUID: String? = nil, pushedRevision: Int? = nil, fileTime: Int64? = nil
  ) {
    self.id = id
    self.instant = instant
    self.kilograms = kilograms
    self.origin = origin
    self.source = source
    self.note = note
    self.revision = revision
    self.healthUUID = healthUUID
    self.pushedUUID = pushedUUID
    self.pushedRevision = pushedRevision
    self.fileTime = fileTime
  }
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
