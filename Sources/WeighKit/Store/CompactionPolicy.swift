/// When the store folds its journal into fresh snapshot files.
///
/// The journal is read whole at every open, so its size bounds the cost of a small command
/// such as `log`; a compaction costs a rewrite of the changed tables (their rows copied as
/// bytes when the table only grew, encoded anew otherwise). Compacting when the journal
/// passes a quarter of the snapshot size, but never before `minimumJournalBytes` and always
/// by `maximumJournalBytes`, keeps both bounded: opening reads at most about 1 MiB of
/// journal, and a million-entry table (about 137 MB) is rewritten once every 1 MiB of
/// changes (some 6,600 `log` commands).
public struct CompactionPolicy: Equatable, Sendable {
  /// The journal size below which the store never compacts.
  public var minimumJournalBytes: Int
  /// The journal size at which the store always compacts.
  public var maximumJournalBytes: Int
  /// The size from which a journal's last record, an import's rows whose compaction did not
  /// follow, is read a piece at a time at the next open and folded into the table's file
  /// then, without holding its rows (`StoreJournal.LargeRecord`); a policy that would not
  /// compact such a journal holds them, as any record.
  public var largeRecordBytes = StoreJournal.largeRecordBytes

  /// A policy with the given bounds.
  public init(minimumJournalBytes: Int, maximumJournalBytes: Int) {
    self.minimumJournalBytes = minimumJournalBytes
    self.maximumJournalBytes = maximumJournalBytes
  }

  /// 64 KiB to 1 MiB, a quarter of the snapshots between.
  public static let standard = CompactionPolicy(
    minimumJournalBytes: 64 << 10, maximumJournalBytes: 1 << 20)

  /// Never compacts by itself (tests, or callers that call `Store.compact()`).
  public static let manual = CompactionPolicy(
    minimumJournalBytes: .max, maximumJournalBytes: .max)

  /// True when a journal of `journalBytes` over snapshots of `snapshotBytes` should be folded.
  public func shouldCompact(journalBytes: Int, snapshotBytes: Int) -> Bool {
    let threshold = min(max(minimumJournalBytes, snapshotBytes / 4), maximumJournalBytes)
    return journalBytes >= threshold
  }
}
