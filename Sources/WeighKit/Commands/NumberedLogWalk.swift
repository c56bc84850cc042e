/// A re-import of weigh's own file that walks the log once beside the file's numbers,
/// holding the entry at its cursor and the entries no weight claimed by number (issue 14
/// item 9: memory whatever the log's size): the answers of `PresenceClaims` over the whole
/// log, for files whose numbers do not go back, and no answer otherwise (the caller then
/// holds the log, `ReimportCheck`).
///
/// `export` writes a log in number order and `entries.json` holds it in number order, so
/// the plan's first pass (each numbered weight, in file order, claims the entry of its
/// number when that entry matches it and is not claimed yet) is a merge of two increasing
/// sequences: for a weight numbered n the cursor moves to the first entry numbered n or
/// more, and the entries it passes can be claimed by number no more. Those left unclaimed
/// are kept (32 bytes each, `CompactLog`): after the file, the weights no number claimed
/// look them up (the plan's second pass, `Summary.claim`), and they are all the entries
/// that pass could claim. A re-import of the file an export wrote keeps few: the entries
/// logged or changed since.
///
/// What the plan asks after the file comes out of the walk too: the log's size and largest
/// number, and which of the kept weights' numbers the log has (met at the cursor when each
/// was looked up), so that the numbers in use need not be the whole log's.
///
/// Measured (rown20, docs/performance.md): a re-import of 4,000,000 rows of weigh's CSV into
/// the store their first import made peaked at 188,396 KB with the log held (`CompactLog`
/// and its two tables) and at 36,376 KB walked (1,000,000 rows: 67,944 → 35,900 KB; the
/// same for its JSON, under `set tz Europe/Rome`, and with 1,000 new rows); user time 2.83 →
/// 2.10 s, instructions 820 M → 823 M (100,000 rows, callgrind). A number that goes back
/// costs a second read of `entries.json` (1,000,000 rows: user 0.65 → 0.73 s, 65,600 →
/// 72,532 KB).
struct NumberedLogWalk {
  private let cursor: TableFile<EntryCodec>.Cursor
  /// The entry at the cursor, the first whose number is not below the last number a weight
  /// asked for; nil past the log's end. Its fields, not the entry: a copy of an entry
  /// retained and released its strings at each look at it.
  private var current: Current?
  /// Whether a weight claimed `current`.
  private var currentClaimed = false
  /// The largest number a weight asked for so far.
  private var lastNumber = 0
  /// The entries passed that no weight claimed, in number order.
  private var unclaimed = CompactLog()
  /// Whether `unclaimed` is kept. Off when the rows no number claimed go to a stream
  /// (`ReimportCheck` with an `ImportStream` of weigh's own rows), which asks the whole log
  /// instead (`LogNumbersAndInstants`), and whose failure reads the file again with the log
  /// held: a store of 1,000,000 entries kept 32 MB more (own22).
  var keepsUnclaimed = true
  /// The positions in the log of the entries claimed, one bit each.
  private var claimedPositions: [UInt64] = []
  /// The numbers of the weights kept that an entry of the log has, in file order.
  private var numbersInLog: [Int] = []
  /// How many entries were read (`current` is the last), and the largest number among them.
  private(set) var count = 0
  private(set) var largestID = 0
  /// Set once the walk cannot answer (a number that goes back, a weight with a file time,
  /// a log that cannot be read): no more answers.
  private(set) var refused = false

  /// The fields of the entry at the cursor that a weight is compared with.
  private struct Current {
    var id: Int
    var instant: Int64
    var fileTime: Int64?
    var kilograms: Double
    var source: String
  }

  /// A walk of the log `cursor` reads; nil when the log has no entries or cannot be read.
  init?(_ cursor: TableFile<EntryCodec>.Cursor) {
    self.cursor = cursor
    advance()
    guard current != nil, !refused else { return nil }
  }

  /// Claims by number what each weight of `weights` (a block, in file order) claims in the
  /// plan's first pass, keeping the rest; the index of the first weight it cannot answer
  /// for (nothing claimed for it or after it), nil when it answered for all.
  mutating func check(
    _ weights: UnsafeBufferPointer<ImportedWeight>, keeping kept: inout ImportedWeights,
    present: inout Int
  ) -> Int? {
    for index in weights.indices {
      // Read in place, as `ReimportCheck.check`.
      let weight = weights.baseAddress.unsafelyUnwrapped + index
      guard let claimed = claim(weight.pointee) else { return index }
      if claimed {
        present += 1
      } else {
        kept.append(weight.pointee)
      }
    }
    return nil
  }

  /// `PresenceClaims.claim(weight, id: weight.number)` over the whole log; nil when the walk
  /// cannot answer.
  private mutating func claim(_ weight: borrowing ImportedWeight) -> Bool? {
    guard !refused else { return nil }
    // A weight without a number is looked up after the file only.
    guard let number = weight.number else { return false }
    // With a file time, the look-up by number first looks up any entry at that time
    // (weigh's readers never make one).
    guard weight.fileTime == nil else {
      refused = true
      return nil
    }
    // No entry has a number outside the entry numbers: nothing to move to.
    guard Entry.isValidNumber(number) else { return false }
    guard number >= lastNumber else {
      refused = true
      return nil
    }
    lastNumber = number
    while let id = current?.id, id < number {
      pass()
      advance()
    }
    guard !refused else { return nil }
    guard current?.id == number else { return false }
    if !currentClaimed, current.unsafelyUnwrapped.instant == weight.instant,
      abs(current.unsafelyUnwrapped.kilograms - weight.kilograms) <= 1e-9,
      current.unsafelyUnwrapped.source == weight.source
    {
      currentClaimed = true
      let position = count - 1
      claimedPositions[position / 64] |= 1 << UInt64(truncatingIfNeeded: position % 64)
      return true
    }
    numbersInLog.append(number)
    return false
  }

  /// Keeps `current` among the entries to look up after the file unless it was claimed.
  private mutating func pass() {
    guard keepsUnclaimed, let entry = current, !currentClaimed else { return }
    guard
      unclaimed.append(
        id: entry.id, instant: entry.instant, fileTime: entry.fileTime,
        kilograms: entry.kilograms, source: entry.source)
    else {
      refused = true
      return
    }
  }

  /// Moves the cursor to the next entry (`current` nil at the end, or when it cannot be
  /// read: `refused` then set, and the usual look-up reports the store's problem).
  private mutating func advance() {
    currentClaimed = false
    let next: Entry?
    do {
      next = try cursor.next()
    } catch {
      current = nil
      refused = true
      return
    }
    guard let entry = next else {
      current = nil
      return
    }
    current = Current(
      id: entry.id, instant: entry.instant, fileTime: entry.fileTime,
      kilograms: entry.kilograms, source: entry.source)
    if count % 64 == 0 { claimedPositions.append(0) }
    count += 1
    largestID = max(largestID, entry.id)
  }

  /// Reads the rest of the log, keeping its entries for the look-up after the file (and
  /// checking the table file to its end, as a read of the whole log would); false when the
  /// walk cannot answer.
  mutating func finish() -> Bool {
    while !refused, current != nil {
      pass()
      advance()
    }
    return !refused
  }

  /// Marks in `claims` (the whole log, held, in the order the walk read it) the entries the
  /// walk claimed: the look-up goes on from where the walk stopped; false when `claims`
  /// holds fewer entries than the walk read.
  func markClaims<Log: PresenceLog>(in claims: inout PresenceClaims<Log>) -> Bool {
    guard claims.entryCount >= count else { return false }
    for (word, bits) in claimedPositions.enumerated() where bits != 0 {
      for bit in 0..<64 where bits & (1 << UInt64(truncatingIfNeeded: bit)) != 0 {
        claims.markClaimed(at: word * 64 + bit)
      }
    }
    return true
  }
}

extension NumberedLogWalk {
  /// What a finished walk tells the plan (`ImportPlan`): the log's size and largest number,
  /// the numbers in use that the weights kept could ask for, and the look-up of the entries
  /// no number claimed, for the weights it did not claim (the plan's second pass).
  struct Summary: ImportPlanLog {
    let entryCount: Int
    let largestID: Int
    private let numbersInLog: [Int]
    private var unclaimed: PresenceClaims<CompactLog>

    fileprivate init(_ walk: NumberedLogWalk) {
      entryCount = walk.count
      largestID = walk.largestID
      numbersInLog = walk.numbersInLog
      unclaimed = PresenceClaims(walk.unclaimed)
    }

    /// Only the numbers of weights the walk kept are asked for: every entry the plan makes
    /// comes from one of them.
    func numbersInUse(keeping entries: [Entry]) -> NumbersInUse {
      NumbersInUse(
        largest: largestID, count: entryCount, holding: numbersInLog, keeping: entries)
    }

    /// The plan's second pass (`id` nil): an entry claimed by number is not among those
    /// looked up, as it would be skipped as claimed.
    mutating func claim(_ weight: borrowing ImportedWeight, id: Int?) -> Bool {
      precondition(id == nil, "the walk claimed by number as the file was read")
      return unclaimed.claim(weight, id: nil)
    }
  }

  /// The summary of a finished walk.
  var summary: Summary { Summary(self) }
}
