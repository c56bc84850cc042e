import HealthSim

/// Where Health's samples and small state are kept, and what a command's Health writes need
/// to be committed with the app's record or undone (docs/store.md, "Health in
/// health.sqlite"): one part of a ``Session``; `Session+HealthStorage.swift` drives it.
struct HealthPersistence {
  /// Where Health's samples are (`Session.openHealthStorage()`): nil for a directory store
  /// without `health.sqlite` yet.
  var storage: (any HealthSampleStorage)?
  /// `health.sqlite`, when it exists and is left for the first command that needs Health
  /// (`Session.openedHealthStorage()`).
  var unopenedPath: String?
  /// In a memory store, Health's small state as of the last commit: kept as a value
  /// rather than as the `health` document, which would cost an encoding per commit.
  var memoryState: HealthSmallState?
  /// In a directory store, while a command runs: Health's small state as of its last
  /// commit, written once by `endCommandTransaction` (it changes with every event).
  var unwrittenState: HealthSmallState?
  /// Between `health.sqlite`'s `COMMIT` of a command and the append of its record to the
  /// journal: the record's sequence (`Session.endHealthAndAppBatch()`).
  var journalLagsAt: Int?
  /// What the migration to `health.sqlite` has to say, once.
  var migrationNotes: [String] = []
  /// A memory store's Health storage, for the whole session.
  var memoryStorage: InMemorySampleStorage?
  /// A copy of a memory store's Health storage as of an earlier commit: with
  /// `memoryRedo`, what undoes the writes after the last commit when a command fails.
  var memoryUndo: InMemorySampleStorage?
  /// What Health kept since `memoryUndo` was taken, replayed on it to undo.
  var memoryRedo: [CommandHealthStorage.Write] = []
  /// While a savepoint of `health.sqlite`'s command transaction is open: what Health kept
  /// since it was opened, replayed after rolling back to it when a command fails
  /// (docs/store.md, "One savepoint for many commits").
  var sqliteRedo: HealthRedo?
  /// Why the writes kept before a failed step could not be replayed: the command's
  /// transaction was rolled back whole, and the command fails with this.
  var lostWrites: StoreError?
  /// The sample types a command said it will write (an import's), handed to `health.sqlite`
  /// at its next write (`Session.expectHealthTypes`).
  var expectedTypes: Set<SampleType> = []
}
