import Foundation

/// An import into a log without entries whose weights go into the store as the file is read
/// (issue 14 item 9: memory whatever the file's size): each block of weights the reader
/// keeps (`ImportedWeightSpill`) becomes entries at once, numbered as the plan numbers them,
/// and every 16,384 entries are streamed into the command's journal record and the table's
/// file (`Store.streamRun`), then let go. Neither the weights nor the entries are held whole.
///
/// It makes the entries `ImportPlan` makes for such a log, in the same order and with the
/// same numbers, only when the duplicate keys come in order (`WeightKeySet`'s fast path)
/// and: rows numbered anew (a vendor's, or weigh's with numbers that are no entry numbers)
/// whose instants go back less than `widestStepBack` from the latest before them (they
/// are held in a window sorted by instant, then line, the plan's order, and streamed once
/// the file's instants passed them by more than that: the hour summer time skips, read in a
/// zone that has one, dst22), or rows of weigh's own file that keep their numbers, each
/// greater than the one before (a log exported, with gaps where entries were deleted: the
/// plan keeps every number then, and orders by them). A file with both, or whose kept
/// numbers go back, is not streamed. Anything else stops it (`read` returns nil, having cut
/// what it wrote off the journal) and the import reads the file again the usual way: files
/// in time order (most logs, and every file `scripts/gen-import-files.py` writes) are read
/// once; a file found out of order at its end is read twice.
///
/// Measured (wmem17, docs/performance.md): a new store's import of 4,000,000 Withings rows
/// peaked at 293 MiB (300,368 KB) and now at 31 MiB, the same at 1,000,000 and 2,000,000 rows;
/// 100,000 rows 477.5 M instructions before, 469.7 M after (callgrind). Weigh's own files and
/// Apple Health's weights (wrun18): 4,000,000 rows of weigh's CSV 293 -> 31 MiB, of its JSON
/// 286 -> 31 MiB; an export.xml of 4,000,000 weights 292 -> 30 MiB; CPU the same or less.
/// weigh's CSV of 1,000,001 rows numbered with gaps (every 7th number deleted) 98 -> 39 MiB
/// (atyp19).
///
/// Nothing of the store's guarantees moves: the rows are the first changes of the command's
/// one transaction, as an import's run always was, so a kill before the record's
/// `fdatasync` leaves a torn record and a temporary table file, as before (docs/store.md).
final class ImportStream {
  private let session: Session
  private let store: Store
  /// The first new entry's number.
  private let first: Int
  /// Weights after this instant are rejected (a minute past the clock, as `ImportPlan`).
  private let latest: Int64
  /// The entries made so far.
  private(set) var count = 0
  /// The instant of the last entry numbered anew that was streamed: an entry made after it
  /// must not be earlier.
  private var streamedThrough = Int64.min
  /// The latest instant of an entry numbered anew (the last of `pending`, or of those
  /// streamed when it is empty).
  private var latestHeld = Int64.min
  /// The line the last weight was read from: while lines never go back, an entry that
  /// comes later in the file comes later in the plan's order among entries at one instant.
  private var lastLine = Int.min
  /// How the entries are numbered: decided by the first entry made.
  private var numbering = Numbering.undecided
  /// The last number kept, while `numbering` is `kept`.
  private var lastKept = 0
  /// Whether an entry made links a Health sample (weigh's own files).
  private(set) var links = false
  /// The entries made and not streamed yet, in number order: while they are numbered anew,
  /// sorted by instant, then file order (`ImportPlan`'s order, by instant, then line, then
  /// file order, while lines never go back), each numbered from `first` by its place (the
  /// entries streamed before it, then its index).
  private var pending: [Entry] = []
  private var started = false
  /// Whether the run streams after the rows of the log's table file (a log with entries,
  /// `init(session:afterTheLogOf:)`): vendor rows numbered anew (`take(_:)`), or weigh's
  /// own rows (`take(_:numberedAfter:)`).
  private let afterItsRows: Bool
  /// Weigh's own rows after a log's rows whose number the log has, or that have none: kept
  /// in a scratch file (held when they go back in time) until the file is read, then
  /// numbered after every number in use (`finish`).
  private var renumbered: ImportRenumberedEntries
  /// Weights after the clock, with their line.
  private(set) var rejections: [ImportRejection] = []

  /// The vendors' formats, whose weights are vendor rows, one reader call each.
  static let vendorFormats: Set<ImportFormat> = [
    .withingsCSV, .openScaleCSV, .fitbitJSON, .renphoCSV, .googleFitCSV, .samsungHealthCSV,
    .garminCSV, .libraCSV, .myFitnessPalCSV, .fitbitCSV, .genericCSV,
  ]

  /// The formats read with one reader call each that stream into a new store: the vendors',
  /// weigh's own files, and an Apple Health export's weights alone (with other types,
  /// `HealthImportPlan` reads it).
  private static let formats = vendorFormats.union([
    .weighCSV, .weighJSON, .appleHealthZip, .appleHealthXML,
  ])

  /// How a stream numbers its entries.
  private enum Numbering {
    /// No entry made yet.
    case undecided
    /// From the session's next number, in file order (= time order).
    case anew
    /// With the numbers the file wrote, each greater than the one before.
    case kept
  }

  /// A stream for an import of `format`, when the store's log has no entries and no file and
  /// the command's transaction has committed nothing yet (`Store.canStreamRun`); nil
  /// otherwise. Reads nothing of the store.
  convenience init?(session: Session, format: ImportFormat) {
    guard Self.formats.contains(format), session.store.canStreamRun(into: EntryCodec.tableName)
    else { return nil }
    self.init(session, afterItsRows: false)
  }

  /// A stream for an import of vendor rows (`ImportStream.vendorFormats`, an Apple Health
  /// export's weights) into a log that has entries, all in its table's file or held without
  /// one (`Store.canStreamRun(into:afterItsRows:)`); nil otherwise. A re-import's check
  /// (`ReimportCheck`) hands it the weights the log does not have, a block at a time, as it
  /// looks them up (walking the log beside the file, or in the log held): their entries are
  /// numbered from the session's next number as `ImportPlan` numbers them (after every
  /// number in use, in time order, then by line: the window of `take`);
  /// and the run is streamed into the table's temporary file after a copy of its rows
  /// (`Store.beginStreamedRun(into:afterItsRows:)`). The check must make sure the log's
  /// largest number is below `first` before it takes the outcome. Reads nothing of the store.
  ///
  /// Measured (imp21, docs/performance.md): 1,000,000 new Withings rows into a store with one
  /// entry peaked at 162 MiB held (162,232 KB) and at 32 MiB streamed (32,440 KB), into a
  /// store of 1,000,000 entries at 968 and 47 MiB, 4,000,000 rows into one entry at 545 and
  /// 31 MiB; 100,000 rows 573 M instructions held, 520 M streamed (callgrind).
  ///
  /// Weigh's own files too (own22): `ReimportCheck` hands on the rows its first pass (claims
  /// by number) did not claim, with the log's numbers and instants (`take(_:numberedAfter:)`).
  convenience init?(session: Session, afterTheLogOf format: ImportFormat) {
    guard
      Self.formats.contains(format),
      session.store.canStreamRun(into: EntryCodec.tableName, afterItsRows: true)
    else { return nil }
    self.init(session, afterItsRows: true)
  }

  /// A stream from the session's next number, weights a minute past its clock rejected.
  private init(_ session: Session, afterItsRows: Bool) {
    self.session = session
    store = session.store
    first = session.nextEntryID
    latest = session.now + 60
    self.afterItsRows = afterItsRows
    renumbered = Self.renumberedEntries(session.store)
  }

  /// A scratch of renumbered entries for `store`'s log, empty.
  private static func renumberedEntries(_ store: Store) -> ImportRenumberedEntries {
    ImportRenumberedEntries(pieceBytes: store.scratchPieceBytes) {
      store.scratchFile(for: EntryCodec.tableName)
    }
  }

  /// The first new entry's number.
  var firstNumber: Int { first }

  /// What a streamed import read: the reader's result (its weights handed on) and the change
  /// that puts the new entries, or the entries themselves when there were too few to stream.
  struct Outcome {
    var result: WeightImportResult
    var change: StoreChange?
    var entries: [Entry]
    var rejections: [ImportRejection]
    /// Whether an entry streamed links a Health sample.
    var links: Bool
  }

  /// How the file was read.
  enum Reading {
    /// Streamed: the plan is made.
    case streamed(Outcome)
    /// Read as usual (the spill turned off before it took a block): every weight is kept.
    case usual(WeightImportResult)
    /// The spill stopped after it took blocks: the file must be read again.
    case again
  }

  /// Reads the file through `read` (a reader's call) with the weights handed on as they
  /// come. Whenever the file is not streamed in the end, nothing is left written.
  ///
  /// - Throws: what `read` throws (a broken file), after cutting off what was written.
  func read(_ read: () throws -> WeightImportResult) throws -> Reading {
    let spill = ImportedWeightSpill { [self] block in take(block) }
    var result: WeightImportResult
    do {
      result = try ImportedWeightSpill.$current.withValue(spill) { try read() }
    } catch {
      store.abandonStreamedRun()
      throw error
    }
    switch spill.takeRest(of: &result.read) {
    case .on: break
    case .off:
      store.abandonStreamedRun()
      return .usual(result)
    case .stopped:
      store.abandonStreamedRun()
      return .again
    }
    guard let outcome = finish(result) else { return .again }
    return .streamed(outcome)
  }

  /// What the stream made once the file was read whole and every block was taken: the
  /// entries not streamed yet go to the store and the run is finished; or, when fewer than
  /// a run's rows came, the entries made, held. Nil when the store refused the last rows
  /// (nothing is left written then: the file must be read again).
  func finish(_ result: WeightImportResult, after log: LogNumbersAndInstants? = nil) -> Outcome? {
    if renumbered.count > 0 {
      // As the plan numbers them: in time order, then by line, after every number in use
      // (the log's and those kept) and never below the session's next number.
      let next = max(first, max(log?.largestNumber ?? 0, lastKept) + 1)
      guard next <= ValueLimits.entryNumber.upperBound - (renumbered.count - 1) else {
        abandon()
        return nil
      }
      if !started, pending.count + renumbered.count >= Store.streamedRunMinimumRows {
        guard store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: afterItsRows)
        else { return nil }
        started = true
      }
      // Read back a run's rows at a time, after the entries kept (`pending`), and streamed.
      var (pending, number, started) = (self.pending, next, self.started)
      self.pending = []
      let numbered = renumbered.forEachPiece(of: Store.streamedRunMinimumRows) { piece in
        for index in piece.indices { piece[index].id = number + index }
        number += piece.count
        guard started else {
          pending += piece
          return true
        }
        do throws(StoreError) {
          if !pending.isEmpty {
            try store.streamRun(pending, of: EntryCodec.self)
            pending = []
          }
          try store.streamRun(piece, of: EntryCodec.self)
        } catch {
          return false
        }
        return true
      }
      renumbered = Self.renumberedEntries(store)
      guard numbered else {
        abandon()
        return nil
      }
      self.pending = pending
    }
    guard started else {
      return Outcome(
        result: result, change: nil, entries: pending, rejections: rejections, links: links)
    }
    do throws(StoreError) {
      try store.streamRun(pending, of: EntryCodec.self)
    } catch {
      return nil
    }
    pending = []
    guard let change = store.finishStreamedRun() else { return nil }
    return Outcome(
      result: result, change: change, entries: [], rejections: rejections, links: links)
  }

  /// Ends a stream that will not be finished: what it wrote is cut off the journal, its
  /// temporary file removed.
  func abandon() {
    store.abandonStreamedRun()
    pending = []
    renumbered = Self.renumberedEntries(store)
  }

  /// The farthest back from the latest instant made that an entry numbered anew may come
  /// and still be numbered as `ImportPlan` numbers it (by instant, then line): entries are
  /// streamed only once the file's instants passed them by more than this, in seconds. A
  /// file read in a zone with summer time goes back an hour where the clocks skip one (a
  /// scale's times in 02:00–02:59 of the day summer time begins are read an hour later, and
  /// the rows at 03:00 come before them again); the widest gap of the zone database is a
  /// day (Samoa skipped 2011-12-30). As `LogWalk.widestOffset`, 36 h.
  ///
  /// Measured (dst22, docs/performance.md): 1,000,000 Withings rows of every minute read
  /// under `set tz Europe/Rome` into a new store were streamed until the skipped hour, then
  /// read again and held: 99,824 KB peak, user 0.84 s; now streamed whole: 33,292 KB, 0.52 s
  /// (into a log with one entry 162,036 -> 35,624 KB). 100,000 such rows 1,065.5 M
  /// instructions before, 624.6 M after; in UTC (no step back) 476.1 M, 478.8 M (callgrind).
  static let widestStepBack: Int64 = 36 * 3600

  /// Makes the entries of `block` (weights in file order); false when one cannot be streamed.
  func take(_ block: [ImportedWeight]) -> Bool {
    // In locals for the loop: each access to a class's stored property is checked for
    // exclusivity at run time (about 80 instructions a row, callgrind).
    var pending = self.pending
    self.pending = []
    var count = self.count
    var latestHeld = self.latestHeld
    var lastLine = self.lastLine
    var numbering = self.numbering
    var lastKept = self.lastKept
    var links = self.links
    let (first, latest, streamedThrough) = (self.first, self.latest, self.streamedThrough)
    pending.reserveCapacity(Store.streamedRunMinimumRows + block.count)
    let ok = block.withUnsafeBufferPointer { weights in
      for index in weights.indices {
        // Read in place: a weight copied out of its block retained its strings.
        let weight = weights.baseAddress.unsafelyUnwrapped + index
        let instant = weight.pointee.instant
        guard instant <= latest else {
          rejections.append(
            .afterTheClock(
              line: weight.pointee.line, instant: instant, now: session.now, zone: session.zone))
          continue
        }
        // The plan orders entries at one instant by line, then file order: file order, while
        // lines never go back (every reader's).
        guard weight.pointee.line >= lastLine else { return false }
        lastLine = weight.pointee.line
        if weight.pointee.isVendorRow {
          guard numbering != .kept, first + count <= ValueLimits.entryNumber.upperBound else {
            return false
          }
          numbering = .anew
          // In time order (every row of most files): numbered next.
          if instant >= latestHeld {
            latestHeld = instant
            pending.append(
              Entry(
                id: first + count, instant: instant, kilograms: weight.pointee.kilograms,
                origin: .import, source: weight.pointee.source, note: weight.pointee.note,
                fileTime: weight.pointee.fileTime))
          } else {
            guard instant >= streamedThrough else { return false }
            Self.insert(
              Entry(
                id: 0, instant: instant, kilograms: weight.pointee.kilograms,
                origin: .import, source: weight.pointee.source, note: weight.pointee.note,
                fileTime: weight.pointee.fileTime), into: &pending, numberedFrom: first + count)
          }
          count += 1
          continue
        }
        // Weigh's own row: its entry, with the number it wrote (0 when that is no entry
        // number: numbered anew, as a vendor's row).
        guard !afterItsRows, var entry = weight.pointee.entry else { return false }
        if entry.healthUUID != nil { links = true }
        if entry.id == 0 {
          guard numbering != .kept, first + count <= ValueLimits.entryNumber.upperBound else {
            return false
          }
          numbering = .anew
          if instant >= latestHeld {
            latestHeld = instant
            entry.id = first + count
            pending.append(entry)
          } else {
            guard instant >= streamedThrough else { return false }
            Self.insert(entry, into: &pending, numberedFrom: first + count)
          }
        } else {
          // The plan keeps every number of such a file and orders the entries by them: the
          // file's order when each is greater than the one before (with gaps: an export of
          // a log after deletions), whatever the instants.
          guard numbering == .undecided || (numbering == .kept && entry.id > lastKept)
          else { return false }
          numbering = .kept
          lastKept = entry.id
          pending.append(entry)
        }
        count += 1
      }
      return true
    }
    self.count = count
    self.latestHeld = latestHeld
    self.lastLine = lastLine
    self.numbering = numbering
    self.lastKept = lastKept
    self.links = links
    // The reader keeps the block, or reads the file again: this stream is done.
    guard ok else { return false }
    return stream(pending)
  }

  /// Makes the entries of `block`, rows of weigh's own file (in file order) that the plan's
  /// first pass did not claim, in a stream after the rows of `log`; false when one cannot
  /// be streamed: a row whose instant and weight an entry has (the plan's second pass may
  /// claim that entry), a row with a file time, a vendor's row, or a number kept that is not
  /// above the last kept (the file's numbers go back). A number kept below the log's largest
  /// goes among the log's rows: the run's table file merges it there by id (merge24). A row
  /// whose number the log has, or that has none, is kept aside
  /// (`ImportRenumberedEntries`: in a scratch file while such rows come in time order, else
  /// held) and numbered by `finish`, which streams them last.
  ///
  /// Measured (own22, docs/performance.md): 1,000,000 rows of weigh's CSV into a store of one
  /// logged entry (its number the file's first) peaked at 161,192 KB held and 35,080 KB
  /// streamed (JSON 161,200 → 34,632 KB; 4,000,000 rows 556,540 → 31,984 KB); into a store
  /// of 1,000,000 other entries, 1,000,000 rows numbered after them 616,988 → 70,816 KB,
  /// 4,000,000 rows 1,565,580 → 70,056 KB. Instructions (callgrind, 100,000 rows): after one
  /// entry 716.2 M → 655.5 M; after 100,000 entries 1,296.9 M → 1,559.6 M (the log is decoded
  /// twice: by the walk and for `LogNumbersAndInstants`), user + system time less.
  ///
  /// Rows numbered among the log's (merge24): 250,000 rows numbered 2, 4, … into a store of
  /// 250,000 numbered 1, 3, … were read again and held, 128,524 KB peak and 31.9 s of CPU
  /// (the held compaction then inserted each new row among the loaded ones: quadratic;
  /// 1,000,000 into 1,000,000 did not finish in 22 minutes; since held25 it merges them by
  /// id in one pass, `TableStorage.merge`); streamed, 65,968 KB and 0.59 s; 1,000,000
  /// into 1,000,000 113,132 KB and 2.35 s. The same files (docs/performance.md). With the
  /// run's ids, the log's numbers and the undo's removals as runs a step apart and the log's
  /// moments as keys of 8 bytes (own25): 1,000,000 into 1,000,000 111,952 → 58,316 KB, and
  /// with its undo 132,656 → 57,984 KB.
  func take(_ block: [ImportedWeight], numberedAfter log: LogNumbersAndInstants) -> Bool {
    var pending = self.pending
    self.pending = []
    var (count, lastKept, links) = (self.count, self.lastKept, self.links)
    let latest = self.latest
    pending.reserveCapacity(Store.streamedRunMinimumRows + block.count)
    let ok = block.withUnsafeBufferPointer { weights in
      for index in weights.indices {
        let weight = weights.baseAddress.unsafelyUnwrapped + index
        let instant = weight.pointee.instant
        // The plan looks a weight up before it compares it with the clock.
        guard weight.pointee.fileTime == nil,
          !log.mayMatch(instant, kilograms: weight.pointee.kilograms),
          let entry = weight.pointee.entry
        else { return false }
        guard instant <= latest else {
          rejections.append(
            .afterTheClock(
              line: weight.pointee.line, instant: instant, now: session.now, zone: session.zone))
          continue
        }
        if entry.healthUUID != nil { links = true }
        count += 1
        guard (1...ImportPlan.largestKeptID).contains(entry.id), !log.hasNumber(entry.id) else {
          guard renumbered.append(entry, line: UInt32(clamping: weight.pointee.line)) else {
            return false
          }
          continue
        }
        // Below the log's largest too: the table's file merges them among its rows by id
        // (merge24). A number that goes back stops the stream (read again, held).
        guard entry.id > lastKept else { return false }
        lastKept = entry.id
        pending.append(entry)
      }
      return true
    }
    (self.count, self.lastKept, self.links) = (count, lastKept, links)
    guard ok else { return false }
    return stream(pending)
  }

  /// Streams `pending` into the store once it holds a run's rows (beginning the run), else
  /// keeps it; false when the store refuses them.
  private func stream(_ pending: consuming [Entry]) -> Bool {
    // The run begins once a run's rows were made, as when every entry was streamed as made
    // (a few kept for the next block do not make it begin later).
    guard pending.count >= Store.streamedRunMinimumRows else {
      self.pending = pending
      return true
    }
    if !started {
      guard store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: afterItsRows)
      else { return false }
      started = true
    }
    // Entries numbered anew are streamed once no entry to come may sort before them.
    let ready = numbering == .anew ? Self.settled(in: pending) : pending.count
    guard ready > 0 else {
      self.pending = pending
      return true
    }
    // The entries after `ready`, held for the next block (the last 36 h of the file's times:
    // 2,160 rows of a file of every minute).
    var rest: [Entry] = []
    if ready < pending.count {
      // Only their room: the next block's entries grow it, once the run's are let go.
      rest.reserveCapacity(pending.count - ready)
      rest.append(contentsOf: pending[ready...])
      pending.removeSubrange(ready...)
    }
    if numbering == .anew { self.streamedThrough = pending[ready - 1].instant }
    do throws(StoreError) {
      try store.streamRun(pending, of: EntryCodec.self)
    } catch {
      return false
    }
    self.pending = rest
    return true
  }

  /// Puts `entry`, numbered anew, earlier than the last of `pending` (sorted by instant,
  /// then file order, numbered from `next` less its count), after every entry of `pending`
  /// at or before its instant (those came earlier in the file), numbering it and those
  /// after it.
  private static func insert(_ entry: Entry, into pending: inout [Entry], numberedFrom next: Int) {
    var entry = entry
    var (low, high) = (0, pending.count)
    while low < high {
      let middle = (low + high) / 2
      if pending[middle].instant <= entry.instant { low = middle + 1 } else { high = middle }
    }
    entry.id = next - pending.count + low
    pending.insert(entry, at: low)
    for index in (low + 1)..<pending.count { pending[index].id += 1 }
  }

  /// How many of `pending`'s first entries (sorted by instant) no entry to come may sort
  /// before: those more than `widestStepBack` before the last.
  private static func settled(in pending: [Entry]) -> Int {
    guard let latest = pending.last?.instant else { return 0 }
    let horizon = latest > Int64.min + widestStepBack ? latest - widestStepBack : Int64.min
    var (low, high) = (0, pending.count)
    while low < high {
      let middle = (low + high) / 2
      if pending[middle].instant < horizon { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
