/// The numbers, and the instants with their weights, of a log's entries, each sorted: the
/// numbers as runs a step apart (`IDRuns`: a log's numbers are mostly runs, every other
/// number one run; 8 bytes a number before own25), the moments 16 bytes an entry: what a stream of weigh's own rows after the log's rows asks of the log
/// (`ImportStream`), once the plan's first pass (claims by number) is done for a row. A row
/// whose number the log has is numbered after the file; a row that no entry has the instant
/// and the weight of cannot claim an entry in the plan's second pass (a weight without a
/// file time matches only an entry with its instant and a weight within 1e-9 kg,
/// `PresenceClaims`), so it is new. The source is not compared: a row that may match is
/// left to the plan.
///
/// The instants alone answered too often: an entry changed since the export (the same
/// number, another weight) has a row in the file at an instant other entries of the log
/// may have.
struct LogNumbersAndInstants {
  private var numbers = IDRuns()
  private var moments: [Moment]

  /// An entry's instant and weight, ordered by both.
  private struct Moment: Comparable {
    var instant: Int64
    var kilograms: Double

    static func < (a: Moment, b: Moment) -> Bool {
      (a.instant, a.kilograms) < (b.instant, b.kilograms)
    }
  }

  /// The log's largest number, 0 for an empty log.
  var largestNumber: Int { numbers.runs.last?.upperBound ?? 0 }

  /// The numbers and instants of `log`'s entries.
  init<Log: PresenceLog>(_ log: Log) {
    var listed: [Int] = []
    moments = []
    listed.reserveCapacity(log.count)
    moments.reserveCapacity(log.count)
    for position in 0..<log.count {
      listed.append(log.id(at: position))
      moments.append(
        Moment(instant: log.instant(at: position), kilograms: log.kilograms(at: position)))
    }
    listed.sort()
    for number in listed where number != numbers.runs.last?.upperBound { numbers.append(number) }
    moments.sort()
  }

  /// The numbers and instants of the entries `cursor` reads, to the file's end; nil when it
  /// cannot be read.
  init?(_ cursor: TableFile<EntryCodec>.Cursor) {
    moments = []
    do {
      // The table's file holds its rows by strictly increasing id (the cursor checks it).
      while let entry = try cursor.next() {
        numbers.append(entry.id)
        moments.append(Moment(instant: entry.instant, kilograms: entry.kilograms))
      }
    } catch {
      return nil
    }
    moments.sort()
  }

  /// Whether an entry has the number `number`.
  func hasNumber(_ number: Int) -> Bool {
    let runs = numbers.runs
    let place = Self.firstPlace(in: runs) { $0.upperBound < number }
    return place < runs.count && runs[place].contains(number)
  }

  /// Whether an entry has the instant `instant` and a weight within 1e-9 kg of `kilograms`.
  func mayMatch(_ instant: Int64, kilograms: Double) -> Bool {
    let low = Moment(instant: instant, kilograms: kilograms - 1e-9)
    let place = Self.firstPlace(in: moments) { $0 < low }
    return place < moments.count && moments[place].instant == instant
      && moments[place].kilograms <= kilograms + 1e-9
  }

  /// The first place in `sorted` whose value `isBelow` does not accept (a binary search).
  private static func firstPlace<Value>(in sorted: [Value], _ isBelow: (Value) -> Bool) -> Int {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = low + (high - low) / 2
      if isBelow(sorted[middle]) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
