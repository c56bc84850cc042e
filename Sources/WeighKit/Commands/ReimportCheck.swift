import Foundation

/// A re-import's check of the file's weights against the log as they are read (issue 14
/// item 9: memory whatever the file's size): each block of weights the reader keeps
/// (`ImportedWeightSpill`) is looked up in the log at once (`PresenceClaims`), and only the
/// weights the log does not have are kept. A file imported again keeps none.
///
/// The answers are the plan's (`ImportPlan`): its look-up claims entries in file order,
/// weight by weight, and the blocks come in file order. The spill hands blocks on only while
/// the file's weights come in the order of their duplicate key's moment (`WeightKeySet`'s
/// fast path, for the in-file duplicates); a file out of that order in its first two blocks
/// is read as before, once; one found out of order later is read again the usual way, with
/// a look-up made anew.
///
/// Vendor rows (`ImportStream.vendorFormats`, and an Apple Health export's weights alone,
/// which are vendor rows without a file time: no Health UUID, no number) are looked up
/// whole as they come. Weigh's own files are looked up in the plan's two passes: each
/// numbered weight first claims the entry with its number, in file order as the blocks
/// come (only two weights of one number depend on each other's order, which is the file's
/// in both); the weights it does not claim are kept, and after the file is read the plan
/// lets them claim any unclaimed entry, in file order (`ImportPlan`'s second pass, over the
/// weights not claimed by number: the same calls on the same claims as when every weight
/// is held).
///
/// Vendor rows look the log up as `LogWalk` walks it, beside the file, holding only the
/// entries near each block, when no command has read it and nothing changed it since its
/// file was written; weigh's own files, as `NumberedLogWalk` walks it beside the file's
/// numbers, holding only the entries no number claimed. Where a walk cannot answer (a log
/// whose instants go back; a file whose numbers go back, from where they do), the log is
/// held: as `CompactLog` (32 bytes an entry, read from the table's file) under the same
/// conditions, else as the session's entries.
///
/// The vendor rows the log does not have are not kept either when the store can stream a run
/// after the log's rows (imp21: its table in its file alone, or held without a file): each
/// block's go to an `ImportStream` as entries, and the plan is the stream's.
///
/// Measured (rimp18, docs/performance.md): a second import of 1,000,000 Withings rows into
/// the store the first made peaked at 181.8 MiB and now at 74.2 MiB (farm-bench medians;
/// 2,000,000 rows: 350 → 125 MiB; 4,000,000: 665 → 222 MiB), CPU 0.94 of before. Weigh's
/// own files and Apple weights (rown18b): 1,000,000 rows of weigh's CSV 186 → 68 MiB, of its
/// JSON 185 → 67 MiB, an export.xml of 1,000,000 weights 189 → 67 MiB, 4,000,000 rows of
/// weigh's CSV 663 → 189 MiB; instructions 0.99 of before (100,000 rows, callgrind).
/// Walked (rbnd19): 1,000,000 Withings rows 73 → 43 MiB peak (farm-bench medians; 10 MB of
/// it anonymous), 2,000,000 125 → 44 MB, 4,000,000 221 → 44 MB (the same under `set tz
/// Europe/Rome`); CPU 0.99 of before for Withings, 0.82 for Google Fit (1,000,000 rows).
/// Weigh's own files walked (rown20): 4,000,000 rows of weigh's CSV 188 → 36 MB, 1,000,000
/// 68 → 36 MB.
final class ReimportCheck {
  /// The look-up of either form of the log, with the entries claimed so far (nil only while
  /// a block is checked). An enum, not a generic class: the loops below are then compiled
  /// for each form (through a generic class's methods, reached by a protocol, the look-up
  /// ran unspecialized, with a metadata look-up per call: 14 % of a million-row re-import in
  /// `PresenceIndex.first` alone, perf).
  private enum Claims {
    case entries(PresenceClaims<[Entry]>)
    case compact(PresenceClaims<CompactLog>)
    case walk(LogWalk)
    case numbered(NumberedLogWalk)
  }

  private var claims: Claims?
  private let session: Session
  /// For vendor rows, the stream the weights the log does not have go to as entries, a block
  /// at a time, when the store can take them after the log's rows
  /// (`ImportStream.init(session:afterTheLogOf:)`: the log in its table's file alone, or held
  /// without one): then they are not kept, and the plan is the stream's.
  private var stream: ImportStream?
  /// Whether the file is weigh's own: a block's weights claim only the entries of their
  /// numbers, and the plan looks the rest up.
  private let claimsByNumber: Bool
  /// The weights not found in the log, in file order.
  private var kept = ImportedWeights()
  /// How many weights were found in the log.
  private var present = 0
  /// For weigh's own files streamed, the log's numbers and instants
  /// (`logNumbersAndInstants`).
  private var numbersAndInstants: LogNumbersAndInstants?

  /// Weigh's own files, whose weights may keep their entry numbers.
  private static let numberedFormats: Set<ImportFormat> = [.weighCSV, .weighJSON]

  /// The formats read with one reader call each (`ImportStream`'s).
  private static let formats = ImportStream.vendorFormats.union(numberedFormats).union([
    .appleHealthZip, .appleHealthXML,
  ])

  /// Whether the log is looked up as read from its table file (`CompactLog`).
  var readsTheLogFromItsFile: Bool {
    switch claims {
    case .compact, .walk, .numbered: true
    case .entries, nil: false
    }
  }

  /// Whether the log is walked beside the file (`LogWalk`, `NumberedLogWalk`), not held.
  var walksTheLog: Bool {
    switch claims {
    case .walk, .numbered: true
    case .entries, .compact, nil: false
    }
  }

  /// A check for an import of `format` into a log that has entries, read from the store
  /// now; nil for another format, an empty log, or a log that cannot be read (the import
  /// then reads the file first and reports the store's problem after it, as before).
  init?(session: Session, format: ImportFormat) {
    guard Self.formats.contains(format) else { return nil }
    claimsByNumber = Self.numberedFormats.contains(format)
    self.session = session
    if let cursor = try? session.store.rowCursorInFile(EntryCodec.self) {
      if claimsByNumber, var walk = NumberedLogWalk(cursor) {
        stream = ImportStream(session: session, afterTheLogOf: format)
        // A stream that stops reads the file again with the log held: the entries the walk
        // would keep for the plan's second pass are not needed.
        walk.keepsUnclaimed = stream == nil
        claims = .numbered(walk)
        return
      }
      if !claimsByNumber, let walk = LogWalk(cursor) {
        claims = .walk(walk)
      }
    }
    if claims == nil {
      guard let claims = Self.usualClaims(session) else { return nil }
      self.claims = claims
    }
    stream = ImportStream(session: session, afterTheLogOf: format)
  }

  /// The log's numbers and instants, read when a row of weigh's own file is first found new
  /// (`ImportStream.take(_:numberedAfter:)`): from the log held, else from its table's file;
  /// nil when it cannot be read.
  private func logNumbersAndInstants() -> LogNumbersAndInstants? {
    if let log = numbersAndInstants { return log }
    switch claims {
    case .entries(let claims)?: numbersAndInstants = LogNumbersAndInstants(claims.log)
    case .compact(let claims)?: numbersAndInstants = LogNumbersAndInstants(claims.log)
    case .walk?, .numbered?, nil:
      guard let cursor = try? session.store.rowCursorInFile(EntryCodec.self) else { return nil }
      numbersAndInstants = LogNumbersAndInstants(cursor)
    }
    return numbersAndInstants
  }

  /// The look-up of the whole log, held: read from its table file when it can be, else the
  /// session's entries; nil for an empty log or one that cannot be read.
  private static func usualClaims(_ session: Session) -> Claims? {
    switch Result(catching: { () throws(StoreError) in try CompactLog(session.store) }) {
    case .success(let compact?):
      guard compact.count > 0 else { return nil }
      return .compact(PresenceClaims(compact))
    case .success(nil):
      guard let entries = try? session.entries(), !entries.isEmpty else { return nil }
      return .entries(PresenceClaims(entries))
    case .failure:
      return nil
    }
  }

  /// Reads the file through `read` (a reader's call), checking the weights as they come.
  ///
  /// - Throws: what `read` throws (a broken file).
  func read(_ read: () throws -> WeightImportResult) throws -> ReimportReading {
    let spill = ImportedWeightSpill { [self] block in take(block) }
    var result: WeightImportResult
    do {
      result = try ImportedWeightSpill.$current.withValue(spill) { try read() }
    } catch {
      stream?.abandon()
      stream = nil
      throw error
    }
    let state = spill.takeRest(of: &result.read)
    if let stream {
      self.stream = nil
      if state == .on {
        // Streamed only once every claim is sure (a walk read the log to its end in its
        // case), and the log's numbers are all below the stream's first: then the plan would
        // have numbered the new entries as the stream did.
        if claimsByNumber {
          if finishedTheLookUp(), let outcome = stream.finish(result, after: numbersAndInstants) {
            return .streamed(outcome, present: present)
          }
        } else if let largest = finishedLargestID(), largest < stream.firstNumber,
          let outcome = stream.finish(result)
        {
          return .streamed(outcome, present: present)
        }
        stream.abandon()
        // The new weights went to the stream: the file is read again, the log held.
        claims = Self.usualClaims(session)
        guard claims != nil else { return .again }
        kept = ImportedWeights()
        present = 0
        return try self.read(read)
      }
      // The spill turned off before a block (nothing streamed: every weight is in `result`)
      // or stopped after some: as without a stream, below.
      stream.abandon()
    }
    if case .numbered(var walk) = claims {
      // The walk answers for every weight after it read the log to its end; no block taken,
      // the log is looked up the usual way; the spill stopped, the file is read again below.
      switch state {
      case .on:
        if walk.finish() {
          claims = .numbered(walk)
        } else {
          claims = Self.usualClaims(session)
          guard claims != nil else { return .again }
          kept = ImportedWeights()
          present = 0
          return try self.read(read)
        }
      case .off:
        claims = Self.usualClaims(session)
        guard claims != nil else { return .again }
      case .stopped:
        break
      }
    }
    // A file out of order after blocks were taken is read again the usual way, as below.
    if case .walk(var walk) = claims, state != .stopped || walk.refused {
      // The walk answers only when it got to the end of the log in its case; else the log
      // is looked up the usual way, held, and the file read again if blocks were taken.
      if state == .on, walk.finish() {
        claims = .walk(walk)
      } else {
        claims = Self.usualClaims(session)
        guard claims != nil else { return .again }
        switch state {
        case .off: return .usual(result)
        case .on, .stopped:
          kept = ImportedWeights()
          present = 0
          return try self.read(read)
        }
      }
    }
    switch state {
    case .on:
      result.read = kept
      kept = ImportedWeights()
      return .checked(result, present: present)
    case .off:
      return .usual(result)
    case .stopped:
      return .again
    }
  }

  /// The log's largest number, once every weight was looked up (a walk read to the log's
  /// end in its case); nil when a claim is not sure, or the file's numbers are claimed
  /// (weigh's own files).
  private func finishedLargestID() -> Int? {
    switch claims {
    case .entries(let claims)?: return claims.largestID
    case .compact(let claims)?: return claims.largestID
    case .walk(var walk)?:
      let finished = walk.finish()
      claims = .walk(walk)
      return finished ? walk.largestID : nil
    case .numbered?, nil: return nil
    }
  }

  /// Whether every weight was looked up by number (a walk read the log to its end, checking
  /// its table's file as a read of the whole log would).
  private func finishedTheLookUp() -> Bool {
    guard case .numbered(var walk) = claims else { return claims != nil }
    let finished = walk.finish()
    claims = .numbered(walk)
    return finished
  }

  /// The plan of a result `read` returned (`checked` or `usual`), `checked` the weights
  /// found in the log as it was read (nil for `usual`). Called once.
  func plan(_ result: inout WeightImportResult, checked: Int?, session: Session) -> ImportPlan {
    switch claims.take()! {
    case .entries(var claims):
      return ImportPlan(
        &result, claiming: &claims, checked: checked,
        lookingUpTheRest: claimsByNumber, session: session)
    case .compact(var claims):
      return ImportPlan(
        &result, claiming: &claims, checked: checked,
        lookingUpTheRest: claimsByNumber, session: session)
    case .walk(let walk):
      // Only after a finished walk, which checked every weight (`read`).
      var summary = walk.summary
      return ImportPlan(
        &result, claiming: &summary, checked: checked, lookingUpTheRest: false,
        session: session)
    case .numbered(let walk):
      // Only after a finished walk, which claimed by number as the file was read (`read`).
      var summary = walk.summary
      return ImportPlan(
        &result, claiming: &summary, checked: checked, lookingUpTheRest: true,
        session: session)
    }
  }

  /// Looks up each weight of `block` (weights in file order), keeping those not found;
  /// false when the walk cannot answer for them.
  private func take(_ block: [ImportedWeight]) -> Bool {
    // In locals for the loop, as `ImportStream.take` (a class's stored properties are
    // checked for exclusivity at each access); taken out, so that `used` is changed in place.
    var kept = self.kept
    self.kept = ImportedWeights()
    var present = self.present
    let taken = take(block, from: 0, keeping: &kept, present: &present)
    self.present = present
    guard let stream else {
      self.kept = kept
      return taken
    }
    // The weights the log does not have (`kept` was empty: none is kept while streaming) go
    // to the stream as entries; one it refuses stops the spill, and the file is read again
    // (`read`).
    guard taken else { return false }
    for index in kept.blocks.indices {
      let block = kept.takeBlock(index)
      if claimsByNumber {
        // Weigh's own rows: the plan's second pass and numbering asked of the log.
        guard !block.isEmpty else { continue }
        guard let log = logNumbersAndInstants(), stream.take(block, numberedAfter: log) else {
          return false
        }
      } else {
        guard stream.take(block) else { return false }
      }
    }
    return true
  }

  /// Looks up the weights of `block` from `start` on, adding to `kept` and `present`, as
  /// `take(_:)`; false when the file must be read again the usual way.
  private func take(
    _ block: [ImportedWeight], from start: Int, keeping kept: inout ImportedWeights,
    present: inout Int
  ) -> Bool {
    switch claims.take()! {
    case .entries(var claims):
      Self.check(
        block, from: start, claiming: &claims, byNumber: claimsByNumber, keeping: &kept,
        present: &present)
      self.claims = .entries(claims)
    case .compact(var claims):
      Self.check(
        block, from: start, claiming: &claims, byNumber: claimsByNumber, keeping: &kept,
        present: &present)
      self.claims = .compact(claims)
    case .walk(var walk):
      let answered = block.withUnsafeBufferPointer {
        walk.check($0, keeping: &kept, present: &present)
      }
      self.claims = .walk(walk)
      guard answered else { return false }
    case .numbered(var walk):
      // Met at a block's start only: once handed over (below), the log is held.
      let stopped = block.withUnsafeBufferPointer {
        walk.check($0, keeping: &kept, present: &present)
      }
      guard let stopped else {
        self.claims = .numbered(walk)
        break
      }
      // A number that went back (or a weight with a file time): the log is held, with the
      // walk's claims marked, and the rest of the file looked up in it, as before the walk.
      // The file is read again the usual way (`read`) when the log cannot be held.
      guard let held = Self.heldClaims(after: walk, session) else { return false }
      self.claims = held
      return take(block, from: stopped, keeping: &kept, present: &present)
    }
    return true
  }

  /// The whole log held (`usualClaims`), with what `walk` claimed marked; nil when it
  /// cannot be.
  private static func heldClaims(after walk: NumberedLogWalk, _ session: Session) -> Claims? {
    switch usualClaims(session) {
    case .compact(var claims)?:
      return walk.markClaims(in: &claims) ? .compact(claims) : nil
    case .entries(var claims)?:
      return walk.markClaims(in: &claims) ? .entries(claims) : nil
    case .walk, .numbered, nil:
      return nil
    }
  }

  private static func check<Log: PresenceLog>(
    _ block: [ImportedWeight], from start: Int, claiming claims: inout PresenceClaims<Log>,
    byNumber: Bool, keeping kept: inout ImportedWeights, present: inout Int
  ) {
    block.withUnsafeBufferPointer { weights in
      for index in start..<weights.count {
        // Read in place: a weight copied out of its block retained its strings.
        let weight = weights.baseAddress.unsafelyUnwrapped + index
        let found =
          if byNumber {
            weight.pointee.number.map { claims.claim(weight.pointee, id: $0) } ?? false
          } else {
            claims.claim(weight.pointee)
          }
        if found {
          present += 1
        } else {
          kept.append(weight.pointee)
        }
      }
    }
  }
}

/// How a re-import's file was read (`ReimportCheck.read`).
enum ReimportReading {
  /// Checked as read: the result keeps the new weights only; `present` were in the log.
  case checked(WeightImportResult, present: Int)
  /// Read as usual (the spill turned off before it took a block): every weight is kept,
  /// and nothing is claimed yet.
  case usual(WeightImportResult)
  /// The spill stopped after it took blocks: the file must be read again the usual way.
  case again
  /// Checked as read, and the new weights streamed into the store as entries
  /// (`ImportStream`): `present` were in the log.
  case streamed(ImportStream.Outcome, present: Int)
}
