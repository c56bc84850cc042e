import Foundation

/// An import into a log without entries whose weights go into the store as the file is read
/// (issue 14 item 9: memory whatever the file's size): each block of weights the reader
/// keeps (`ImportedWeightSpill`) becomes entries at once, numbered in file order, and every
/// 16,384 entries are streamed into the command's journal record and the table's file
/// (`Store.streamRun`), then let go. Neither the weights nor the entries are held whole.
///
/// It makes the entries `ImportPlan` makes for such a log, in the same order and with the
/// same numbers, only when that order is the file's and the duplicate keys come in order
/// (`WeightKeySet`'s fast path): rows numbered anew (a vendor's, or weigh's with numbers
/// that are no entry numbers) whose instants never go back, or rows of weigh's own file
/// that keep their numbers, each greater than the one before (a log exported, with gaps
/// where entries were deleted: the plan keeps every number then, and orders by them). A file
/// with both, or whose kept numbers go back, is not streamed. Anything else stops it (`read` returns nil, having cut what
/// it wrote off the journal) and the import reads the file again the usual way: files in
/// time order (most logs, and every file `scripts/gen-import-files.py` writes) are read once;
/// a file found out of order at its end is read twice.
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
  private var lastInstant = Int64.min
  /// How the entries are numbered: decided by the first entry made.
  private var numbering = Numbering.undecided
  /// The last number kept, while `numbering` is `kept`.
  private var lastKept = 0
  /// Whether an entry made links a Health sample (weigh's own files).
  private(set) var links = false
  /// The entries made and not streamed yet.
  private var pending: [Entry] = []
  private var started = false
  /// Whether the run streams after the rows of the log's table file (a log with entries,
  /// `init(session:afterTheLogOf:)`): vendor rows only, numbered anew.
  private let afterItsRows: Bool
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
  /// numbered from the session's next number in file order, as `ImportPlan` numbers them
  /// (after every number in use, in time order, then by line) while instants never go back;
  /// and the run is streamed into the table's temporary file after a copy of its rows
  /// (`Store.beginStreamedRun(into:afterItsRows:)`). The check must make sure the log's
  /// largest number is below `first` before it takes the outcome. Reads nothing of the store.
  ///
  /// Measured (imp21, docs/performance.md): 1,000,000 new Withings rows into a store with one
  /// entry peaked at 162 MiB held (162,232 KB) and at 32 MiB streamed (32,440 KB), into a
  /// store of 1,000,000 entries at 968 and 47 MiB, 4,000,000 rows into one entry at 545 and
  /// 31 MiB; 100,000 rows 573 M instructions held, 520 M streamed (callgrind).
  convenience init?(session: Session, afterTheLogOf format: ImportFormat) {
    guard
      Self.vendorFormats.contains(format) || format == .appleHealthZip
        || format == .appleHealthXML,
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
  func finish(_ result: WeightImportResult) -> Outcome? {
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
  }

  /// Makes the entries of `block` (weights in file order); false when one cannot be streamed.
  func take(_ block: [ImportedWeight]) -> Bool {
    // In locals for the loop: each access to a class's stored property is checked for
    // exclusivity at run time (about 80 instructions a row, callgrind).
    var pending = self.pending
    self.pending = []
    var count = self.count
    var lastInstant = self.lastInstant
    var numbering = self.numbering
    var lastKept = self.lastKept
    var links = self.links
    let (first, latest) = (self.first, self.latest)
    pending.reserveCapacity(Store.streamedRunMinimumRows + block.count)
    let ok = block.withUnsafeBufferPointer { weights in
      for index in weights.indices {
        // Read in place: a weight copied out of its block retained its strings.
        let weight = weights.baseAddress.unsafelyUnwrapped + index
        let instant = weight.pointee.instant
        guard instant <= latest else {
          rejections.append(
            ImportRejection(
              line: weight.pointee.line,
              reason:
                "\(session.zone.minuteText(instant)) is after the clock (\(session.zone.minuteText(session.now))); move the clock forward or fix the date"
            ))
          continue
        }
        if weight.pointee.isVendorRow {
          guard numbering != .kept else { return false }
          numbering = .anew
          // Numbered in time order, then by line: the file's order while instants never go
          // back.
          guard instant >= lastInstant, first + count <= ValueLimits.entryNumber.upperBound
          else { return false }
          lastInstant = instant
          pending.append(
            Entry(
              id: first + count, instant: instant, kilograms: weight.pointee.kilograms,
              origin: .import, source: weight.pointee.source, note: weight.pointee.note,
              fileTime: weight.pointee.fileTime))
          count += 1
          continue
        }
        // Weigh's own row: its entry, with the number it wrote (0 when that is no entry
        // number: numbered anew, as a vendor's row).
        guard !afterItsRows, var entry = weight.pointee.entry else { return false }
        if entry.id == 0 {
          guard numbering != .kept else { return false }
          numbering = .anew
          guard instant >= lastInstant, first + count <= ValueLimits.entryNumber.upperBound
          else { return false }
          lastInstant = instant
          entry.id = first + count
        } else {
          // The plan keeps every number of such a file and orders the entries by them: the
          // file's order when each is greater than the one before (with gaps: an export of
          // a log after deletions), whatever the instants.
          guard numbering == .undecided || (numbering == .kept && entry.id > lastKept)
          else { return false }
          numbering = .kept
          lastKept = entry.id
        }
        if entry.healthUUID != nil { links = true }
        pending.append(entry)
        count += 1
      }
      return true
    }
    self.count = count
    self.lastInstant = lastInstant
    self.numbering = numbering
    self.lastKept = lastKept
    self.links = links
    // The reader keeps the block, or reads the file again: this stream is done.
    guard ok else { return false }
    guard pending.count >= Store.streamedRunMinimumRows else {
      self.pending = pending
      return true
    }
    if !started {
      guard store.beginStreamedRun(into: EntryCodec.tableName, afterItsRows: afterItsRows)
      else { return false }
      started = true
    }
    do throws(StoreError) {
      try store.streamRun(pending, of: EntryCodec.self)
    } catch {
      return false
    }
    return true
  }
}
