import Foundation
import HealthSim

/// What `import … types …` adds to Health, in batches as the reader hands the records over,
/// and the counts for its report (docs/store.md, "Moving weigh's Health store to SQLite",
/// step 5).
///
/// At most `batchSize` samples are held at a time: each full batch is checked against what
/// Health already has (through its start-date index) and saved into the command's one
/// transaction, so the memory an import needs does not grow with the file. A file found
/// broken after some batches were saved fails the command, which rolls Health back: the
/// import stays all or nothing. Peak memory of the import of a generated 1 GB export.zip
/// (1,248,432 samples): 2.29 GiB when every sample was held to the end, 70 MiB in batches
/// (docs/performance.md, "The all-types import in batches").
struct HealthImportPlan {
  /// Samples held before they are checked and saved: 10,000 (a batch's samples are a few MiB).
  static let defaultBatchSize = 10_000
  /// The page cache SQLite may keep for health.sqlite once an import saves new samples into
  /// a `record` table that had rows (SQLite's default is 2 MiB): each insert into the UUID
  /// index lands at a random place of it (docs/performance.md, "The all-types import: a
  /// larger page cache").
  static let pageCacheMebibytes = 64
  /// The page cache once an import saves new samples into a `record` table it fills from
  /// empty (a new store's first import, `HealthSQLiteStorage.commandFillsEmptyTable`): the
  /// UUID index is dropped and every insert lands at a right edge, so a larger cache only
  /// fills with pages written once. At 64 MiB the cache was what grew with the file: a new
  /// store's import of 4,000,000 weights and 1,000,000 step counts with `types` peaked at
  /// 130 MiB, 73 MiB at 8 MiB; the 1 GB all-types export 133 → 80 MiB, with the same
  /// instructions (100 MB export: 5,049 M at 64 MiB, 5,048 M at 8) and the same writes and
  /// reads of the file; at 2 MiB the 4,000,000-weight import took 3 s more system time
  /// (docs/performance.md, "hread21: …").
  static let fillingPageCacheMebibytes = 8

  /// The types asked for, in the order the report lists them.
  let types: [ImportDataType]
  /// Whether health.sqlite's page cache was set (`sizePageCache`).
  private var widenedPageCache = false
  /// The most samples held before they are checked and saved.
  let batchSize: Int
  /// Samples Health already has, and repeats within the file.
  private(set) var alreadyPresent = 0
  /// Records that could not be taken, samples after the clock and samples Health refused.
  private(set) var rejectionCount = 0
  /// Samples saved, by type.
  private(set) var imported: [SampleType: Int] = [:]
  /// Records taken (imported or already present) whose tag the reader repaired (attribute
  /// names with spaces, kept as metadata); final after `finish`.
  private(set) var repairedRecords = 0
  /// Whether some sample was new to Health (saved, or refused by it).
  private(set) var hasNewSamples = false
  /// The most samples held at once (never more than `batchSize`), and the batches checked.
  private(set) var mostHeld = 0
  private(set) var batchesChecked = 0

  /// Samples read and not yet checked against Health: at most `batchSize`.
  private var candidates: [Candidate] = []
  /// The distinct source revisions of `candidates` (a candidate's `group` indexes it).
  private var revisions: [SourceRevision] = []
  /// The start seconds of `candidates` by type (gathered by the reader's thread).
  private var starts = Starts()
  /// The samples Health saved from `candidates`, kept to be freed with them.
  private var saved: [[HealthSample]] = []
  /// While `read` runs: the hand-off to the reader's thread, which frees what a saved batch
  /// leaves (`BatchHandoff.giveBack`).
  private var handoff: BatchHandoff?
  /// The first rejection of each kind by line (read, after the clock, refused by Health): the
  /// report names the first by line, and among rejections of one line the first kind.
  private var firstRejections: [ImportRejection?] = [nil, nil, nil]
  /// Samples found new but not kept by Health (refused, or a sync version not higher than
  /// the stored one): a repeat of one in a later batch is already present, as in the same one.
  private var notKept: [Key: Values] = [:]
  /// Why the batches stopped being saved (Health could not be opened), said once the file
  /// is read well-formed: a broken file's own error comes first.
  private var failure: Diagnostic?
  /// The records read and not yet handed over as a batch (`take`'s; `read` moves it to its
  /// thread).
  private var reader: BatchReader

  struct Candidate: Sendable {
    var imported: HealthExportMapping.Imported
    var line: Int
    var repaired: Bool
    /// The index of the sample's source revision among its batch's (`Batch.revisions`):
    /// candidates of one index have equal revisions, of two indexes different ones.
    var group: Int
    /// The sample, its own checks for a save passed (made on the reader's thread); nil when
    /// one failed.
    var checked: CheckedSample?
  }

  /// An empty plan for `types` (weights are the log's business and are left out).
  init(types: Set<ImportDataType>, batchSize: Int = defaultBatchSize) {
    self.types = ImportDataType.allCases.filter { types.contains($0) && $0 != .weight }
    self.batchSize = max(1, batchSize)
    reader = BatchReader(types: self.types, batchSize: self.batchSize)
    candidates.reserveCapacity(min(self.batchSize, Self.defaultBatchSize))
  }

  /// Takes one record or workout as the reader hands it over, on this thread (the fuzz
  /// target's way): maps it to a sample at once, so only the sample is kept, or records why
  /// not. A full batch is checked and saved in `session` (without one, it is dropped).
  mutating func take(_ item: HealthExportItem, line: Int, savingIn session: Session? = nil) {
    guard let full = reader.take(item, line: line) else {
      mostHeld = max(mostHeld, reader.held)
      return
    }
    receive(full, savingIn: session)
  }

  /// Reads `url` (`AppleHealthWeightImporter.read`) on a second thread while this one checks
  /// and saves the batches it hands over; returns the weights read. The last batch is left
  /// for `finish`, as `take` leaves it.
  ///
  /// The reader (unzip, XML, mapping) did a third of the import's work and the saving two
  /// thirds, one after the other; on two cores the import now takes about as long as the
  /// saving alone (docs/performance.md, "The all-types import on two threads"). At most one full
  /// batch waits between them, so at most three are held: one being read, one waiting, one
  /// being saved. Batches are saved in the order read, so the output and what is kept are
  /// those of one thread. A file found broken fails after the batches before the break were
  /// saved, which the command's transaction rolls back, as on one thread.
  ///
  /// With a spill set around the call (`ImportedWeightSpill.current`: the import streams the
  /// weights into a new log, `ImportStream`, or checks them against the log, `ReimportCheck`),
  /// the reader's thread hands each block of weights over as it is kept, between the
  /// batches, and this thread gives it to that spill: the weights are not held whole either
  /// (docs/store.md, "An export's weights with types, streamed (atyp19, 2026-11-28)").
  /// Measured (atyp19): a re-import of an export of 1,000,000 weights and 250,000 step counts
  /// peaked at 224 MiB and now at 106 MiB (4,000,000 weights: 746 -> 276 MiB). Into a new
  /// store the read stays at 13 MiB, but the commit still holds the whole journal record for
  /// health.sqlite (599 MiB at 1,000,000 weights, where 657 MiB held the weights too).
  ///
  /// - Throws: what `AppleHealthWeightImporter.read` throws.
  mutating func read(
    _ url: URL, alsoReading recordTypes: Set<String>, workouts: Bool, savingIn session: Session
  ) throws -> WeightImportResult {
    let handoff = BatchHandoff()
    let (types, batchSize) = (self.types, self.batchSize)
    // A task-local value is the thread's: the reader's thread has a spill of its own, which
    // hands the blocks over; the command's spill takes them here, on this thread, as it
    // would have from the reader.
    let spill = ImportedWeightSpill.current
    let handing = spill.map { _ in
      ImportedWeightSpill { block in
        handoff.put(.weights(block))
        return true
      }
    }
    let thread = Thread {
      var reader = BatchReader(types: types, batchSize: batchSize)
      do {
        var result = try ImportedWeightSpill.$current.withValue(handing) {
          try AppleHealthWeightImporter.read(
            url, alsoReading: recordTypes, workouts: workouts, resolvingDevices: true
          ) { item, line in
            if let full = reader.take(item, line: line) { handoff.put(.batch(full)) }
          }
        }
        let state = handing?.takeRest(of: &result.read)
        handoff.put(.batch(reader.rest()))
        handoff.put(.end(.success(result), state))
      } catch {
        handoff.put(.end(.failure(error), nil))
      }
    }
    // The main thread's stack size: the reader's recursion is the same as on it.
    thread.stackSize = 8 << 20
    thread.start()
    self.handoff = handoff
    defer { self.handoff = nil }
    while true {
      switch handoff.take() {
      case .batch(let batch): receive(batch, savingIn: session)
      case .weights(let block): spill?.take(handed: block)
      case .end(let outcome, let state):
        if let state { spill?.follow(state) }
        return try outcome.get()
      }
    }
  }

  /// A batch from the reader: its rejections are counted, and a full batch is checked and
  /// saved; a partial one (the file's last) is kept for `finish`.
  /// Without a session (the fuzz target's reading), a full batch is dropped.
  private mutating func receive(_ batch: Batch, savingIn session: Session?) {
    for rejection in batch.rejections { reject(rejection, kind: 0) }
    mostHeld = max(mostHeld, batch.held)
    hold(batch)
    guard candidates.count >= batchSize else { return }
    if let session { saveBatch(in: session) } else { dropCandidates() }
  }

  /// Adds a batch's samples to those held, with their revisions' indexes among `revisions`.
  private mutating func hold(_ batch: Batch) {
    if candidates.isEmpty {
      // The batch's array itself, not a copy of its elements (each retained, then released
      // with the batch).
      revisions = batch.revisions
      candidates = batch.candidates
      starts = batch.starts
      return
    }
    starts.add(batch.starts)
    // Held samples of another batch (the reader's last part, then the plan's own, never
    // both in practice): the batch's indexes are moved to those of `revisions`.
    let moved = batch.revisions.map { revision in
      if let index = revisions.firstIndex(of: revision) { return index }
      revisions.append(revision)
      return revisions.count - 1
    }
    for var candidate in batch.candidates {
      candidate.group = moved[candidate.group]
      candidates.append(candidate)
    }
  }

  /// Lets go of the samples held, and of those Health saved from them: back to the reader's
  /// thread while `read` runs, which frees them.
  private mutating func dropCandidates() {
    if let handoff, !candidates.isEmpty {
      handoff.giveBack(Spent(candidates: candidates, saved: saved))
      candidates = []
    } else {
      candidates.removeAll(keepingCapacity: true)
    }
    saved = []
    starts = Starts()
    revisions.removeAll(keepingCapacity: true)
  }

  /// Checks and saves the last batch once the whole file is read well-formed.
  ///
  /// - Throws: why Health could not take the batches (it could not be opened).
  mutating func finish(in session: Session) throws(Diagnostic) {
    // Health is opened even for a file without samples, as a command that reads it does.
    if failure == nil {
      do throws(Diagnostic) { _ = try session.health() } catch { failure = error }
    }
    let rest = reader.rest()
    for rejection in rest.rejections { reject(rejection, kind: 0) }
    hold(rest)
    saveBatch(in: session)
    session.lastHealthImport = (mostHeld, batchesChecked)
    if !widenedPageCache { session.lastHealthImportPageCache = nil }
    if let failure { throw failure }
  }

  /// Checks the samples held against Health and saves the new ones into the command's
  /// transaction; a failure is kept for `finish`, and later batches are dropped.
  ///
  /// A sample is already present when Health has a live sample of the same type and
  /// source name, starting in the same second, with the same value (within 1e-9 of it);
  /// for a workout the value is its duration. Samples after the clock are rejected.
  private mutating func saveBatch(in session: Session) {
    defer { dropCandidates() }
    guard failure == nil, !candidates.isEmpty else { return }
    let health: HealthStore
    do throws(Diagnostic) { health = try session.health() } catch {
      failure = error
      return
    }
    // Health answers nothing once its storage failed: the command fails after it
    // (`Session.perform`), and checking more batches would only count false rejections.
    guard health.storageFailure == nil else { return }
    batchesChecked += 1
    var present = presentSamples(around: starts, in: health)
    // Each new sample's key goes in (a repeat later in the batch is already present).
    present.reserveCapacity(present.count + candidates.count)
    let latest = Date(seconds: session.now + 60)
    var groups: [Group] = []
    // The group of each revision index, -1 before its first new sample (the reader's
    // thread found the indexes: `BatchReader.group(of:)`).
    var groupOfRevision = [Int](repeating: -1, count: revisions.count)
    // By index, each candidate read in place (the loop's copy of each was 240 instructions).
    for position in candidates.indices {
      // The sample's fields, read in place (a copy of the sample cost 500 instructions).
      let start = candidates[position].imported.sample.startDate
      let key = Key(
        candidates[position].imported.sample.type,
        candidates[position].imported.revision.source.name, start)
      let value = candidates[position].imported.sample.value
      // One look-up of the key (its hash was two a new sample: the question, then the
      // insertion); a key of a late sample is left with no value, which matches nothing.
      let seenNotKept = !notKept.isEmpty && notKept[key]?.matches(value) == true
      switch present[key, default: Values()].add(
        value, unlessSeen: seenNotKept, late: start > latest)
      {
      case .present:
        alreadyPresent += 1
        if candidates[position].repaired { repairedRecords += 1 }
        continue
      case .late:
        let start = Instant.seconds(of: start)
        reject(
          .afterTheClock(
            line: candidates[position].line, instant: start, now: session.now, zone: session.zone),
          kind: 1)
        continue
      case .added: break
      }
      if candidates[position].repaired { repairedRecords += 1 }
      hasNewSamples = true
      // Grouped by source revision, the groups in the order of their first new sample.
      var index = groupOfRevision[candidates[position].group]
      if index < 0 {
        index = groups.count
        groupOfRevision[candidates[position].group] = index
        groups.append(Group(revision: candidates[position].imported.revision))
      }
      groups[index].add(candidates[position], at: position)
    }
    if !groups.isEmpty, !sizePageCache(in: session) { return }
    for group in groups { save(group, in: health) }
    session.lastHealthImport = (mostHeld, batchesChecked)
  }

  /// Lets SQLite keep more of health.sqlite's pages, once, before the first batch with new
  /// samples is saved: `fillingPageCacheMebibytes` when the command fills an empty `record`
  /// table, else `pageCacheMebibytes`. A batch with nothing new (a re-import) reads what
  /// Health has around its starts, each page once, and leaves SQLite's default: with the
  /// 64 MiB cache set from the first batch, a re-import of 1,000,000 step counts peaked at
  /// 125 MiB, 62 MiB without. Returns false when the storage failed (kept in `failure`).
  private mutating func sizePageCache(in session: Session) -> Bool {
    // health.sqlite exists once the first batch is saved (a new store makes it then).
    guard !widenedPageCache, let sqlite = session.healthSQLite else { return true }
    widenedPageCache = true
    do throws(StoreError) {
      let mebibytes =
        try sqlite.commandFillsEmptyTable()
        ? Self.fillingPageCacheMebibytes : Self.pageCacheMebibytes
      try sqlite.setPageCache(mebibytes: mebibytes)
      session.lastHealthImportPageCache = mebibytes
    } catch {
      failure = Session.diagnostic(for: error)
      return false
    }
    return true
  }

  /// The new samples of one source revision in a batch, in file order, and where each is in
  /// the batch: the samples are gathered as Health takes them, and a candidate (whose
  /// revision is five strings retained at each copy) is not copied.
  private struct Group {
    let revision: SourceRevision
    var samples: [HealthSample] = []
    /// `samples` as checked on the reader's thread, while every one of them passed.
    var checked: [CheckedSample] = []
    /// The index in `candidates` of each of `samples`.
    var members: [Int] = []

    mutating func add(_ candidate: Candidate, at position: Int) {
      if let checked = candidate.checked, self.checked.count == samples.count {
        self.checked.append(checked)
      }
      samples.append(candidate.imported.sample)
      members.append(position)
    }

    /// Whether every sample passed its own checks (`checked` holds them all).
    var isChecked: Bool { checked.count == samples.count }
  }

  /// What Health has of the batch's types around the batch's starts, by key: one read of the
  /// start-date index per run of starts of a type without an hour's gap (the records of a
  /// type are nearly in time order in an export, so a batch is a few runs per type; a file
  /// in no order reads more, shorter runs, never the whole history).
  private func presentSamples(around starts: Starts, in health: HealthStore) -> [Key: Values] {
    var present: [Key: Values] = [:]
    for (type, seconds) in starts.byType {
      // Asked before the starts are sorted (none of them is read when it says so).
      if let first = seconds.min(), Self.nothingStarts(from: first, of: type, in: health) {
        continue
      }
      let sorted = seconds.sorted()
      var index = sorted.startIndex
      while index < sorted.endIndex {
        let first = sorted[index]
        var last = first
        index += 1
        while index < sorted.endIndex, sorted[index] - last <= Self.runGap {
          last = sorted[index]
          index += 1
        }
        // A start clamped to the instant limits stands for every date beyond them.
        let lower =
          first <= ValueLimits.instant.lowerBound ? Date.distantPast : Date(seconds: first)
        let upper =
          last >= ValueLimits.instant.upperBound ? Date.distantFuture : Date(seconds: last + 1)
        for sample in health.allSamples(of: type, startingIn: lower..<upper) {
          present[Key(sample.type, sample.source?.name ?? "", sample.startDate), default: Values()]
            .append(sample.value)
        }
      }
    }
    return present
  }

  /// Whether Health has no live sample of `type` starting at `first` (seconds) or later, by
  /// one look-up of the newest: then none of the batch's runs of the type, which all start
  /// there or later, can find anything. An export is read in time order, so in a new store
  /// (and past what Health had) every run is skipped: the runs' reads were 1,340 for the
  /// 10 MB all-types import's two batches, 3,000 instructions each, all finding nothing.
  private static func nothingStarts(
    from first: Int64, of type: SampleType, in health: HealthStore
  ) -> Bool {
    // A start clamped to the instant limits stands for every date before them.
    guard first > ValueLimits.instant.lowerBound else { return false }
    guard let newest = health.newestSample(of: [type]) else { return true }
    return newest.startDate < Date(seconds: first)
  }

  /// Starts of one type further apart than this are read from Health separately.
  static let runGap: Int64 = 3600

  /// Saves one source revision's new samples of a batch; a group Health refuses is saved
  /// sample by sample so that only the refused samples are rejected. A sample with a sync
  /// identifier Health already has at this version or higher counts as already present.
  private mutating func save(_ group: Group, in health: HealthStore) {
    do throws(HealthError) {
      // Samples checked on the reader's thread are not checked again; a group with one that
      // failed is saved as any, and refused for it.
      let saved =
        group.isChecked
        ? try health.save(group.checked, as: group.revision)
        : try health.save(group.samples, as: group.revision)
      count(saved, of: group.samples)
      self.saved.append(saved)
    } catch {
      for index in group.members {
        let member = candidates[index]
        do throws(HealthError) {
          let sample = [member.imported.sample]
          count(try health.save(sample, as: group.revision), of: sample)
        } catch {
          if member.repaired { repairedRecords -= 1 }
          keepAsNotKept(member.imported.sample)
          reject(
            ImportRejection(line: member.line, reason: "Health refused it: \(error.message)"),
            kind: 2)
        }
      }
    }
  }

  /// Counts what Health saved of `members` (in their order, leaving out those whose sync
  /// version was not higher than the stored one, which are already present).
  private mutating func count(_ saved: [HealthSample], of members: [HealthSample]) {
    // By runs of one type (an export's records come in long runs): one look-up a run.
    var index = saved.startIndex
    while index < saved.endIndex {
      let type = saved[index].type
      var end = index + 1
      while end < saved.endIndex, saved[end].type == type { end += 1 }
      imported[type, default: 0] += end - index
      index = end
    }
    alreadyPresent += members.count - saved.count
    guard saved.count < members.count else { return }
    // `saved` is `members` in order without those left out.
    var next = saved.startIndex
    for sample in members {
      if next < saved.endIndex, saved[next].type == sample.type,
        saved[next].startDate == sample.startDate, saved[next].value == sample.value
      {
        next += 1
      } else {
        keepAsNotKept(sample)
      }
    }
  }

  private mutating func keepAsNotKept(_ sample: HealthSample) {
    let source = sample.source?.name ?? ""
    notKept[Key(sample.type, source, sample.startDate), default: Values()].append(sample.value)
  }

  /// Counts a rejection, keeping the first by line of its kind.
  private mutating func reject(_ rejection: ImportRejection, kind: Int) {
    rejectionCount += 1
    if let first = firstRejections[kind], first.line <= rejection.line { return }
    firstRejections[kind] = rejection
  }

  /// The first rejection by line, of whatever kind; the command shows it as a note.
  var firstRejection: ImportRejection? {
    firstRejections.compactMap { $0 }.min { $0.line < $1.line }
  }

  /// `Health: imported 3 (glucose 2, workouts 1), already present 0, rejected 1`.
  var summary: String {
    let total = imported.values.reduce(0, +)
    var line = "Health: imported \(total)"
    let parts = types.compactMap { type -> String? in
      guard let count = imported[type.sampleType], count > 0 else { return nil }
      return "\(type.rawValue) \(count)"
    }
    if !parts.isEmpty { line += " (\(parts.joined(separator: ", ")))" }
    line += ", already present \(alreadyPresent), rejected \(rejectionCount)"
    return line
  }

  /// The values of the samples of one key: nearly always one, held without an array (an
  /// array per key was a `malloc` and a `free` for each new sample of an import).
  struct Values {
    private var first: Double?
    private var more: [Double] = []

    mutating func append(_ value: Double) {
      if first == nil { first = value } else { more.append(value) }
    }

    /// What `add` did with a sample's value.
    enum Outcome { case present, late, added }

    /// `value` is present when one of the values matches it or it was `seen` already (a
    /// value Health did not keep before); else it is added unless it is `late` (after the
    /// clock).
    mutating func add(_ value: Double, unlessSeen seen: Bool, late: Bool) -> Outcome {
      if seen || matches(value) { return .present }
      if late { return .late }
      append(value)
      return .added
    }

    /// Whether one of the values is `value` within 1e-9 of it (relative past 1).
    func matches(_ value: Double) -> Bool {
      func near(_ other: Double) -> Bool { abs(other - value) <= 1e-9 * max(1, abs(value)) }
      guard let first else { return false }
      return near(first) || more.contains(where: near)
    }
  }

  struct Key: Hashable {
    var type: SampleType
    var source: String
    var start: Int64

    init(_ type: SampleType, _ source: String, _ start: Date) {
      self.type = type
      self.source = source
      self.start = Instant.seconds(of: start)
    }

    /// The type and the start second only: keys equal by `==` still hash alike, and the
    /// source's name, compared by `==`, is not hashed (a name that is not ASCII, as an
    /// iPhone's "Anna’s iPhone", is normalized for every hash: 1,400 instructions a look-up,
    /// three look-ups a sample read).
    func hash(into hasher: inout Hasher) {
      hasher.combine(type)
      hasher.combine(start)
    }
  }
}
