/// The numbers, and the instants with their weights, of a log's entries, each sorted: the
/// numbers as runs a step apart (`IDRuns`: a log's numbers are mostly runs, every other
/// number one run), each instant and weight as one key of 8 bytes (`Moments`; own25: 24
/// bytes an entry before, 24 MB for a log of 1,000,000): what a stream of weigh's own rows after the log's rows asks of the log
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
  private var moments: [UInt64]

  /// The keys of moments: an instant and a weight's bucket in one `UInt64`, ordered by both.
  /// The bucket is 2^-14 kg wide (61 µg; weights from 0 to 1,024 kg apart), the instant
  /// 2^39 s either side of 1970 (17,400 years); a weight or instant beyond shares the key of
  /// the nearest. Both increase with what they hold, so an entry whose instant and weight
  /// match a row's has a key between the row's lowest and highest (`mayMatch`): a key may
  /// answer yes for two weights 61 µg apart, never no for a match.
  enum Moments {
    /// The bits of a key that hold the weight's bucket.
    static let weightBits: UInt64 = 24
    /// The instants kept apart: from -`instantLimit` to `instantLimit` - 1.
    static let instantLimit: Int64 = 1 << 39

    /// The bucket of `kilograms`: 0 at or below 0 kg, the last at or above 1,024 kg.
    static func bucket(_ kilograms: Double) -> UInt64 {
      // checked: a Double's product, compared with the bucket range before the conversion.
      let scaled = (kilograms * 16_384).rounded(.down)
      guard scaled > 0 else { return 0 }
      // checked: below 2^24 here.
      return UInt64(min(scaled, Double((1 << weightBits) - 1)))
    }

    /// The key of `instant` with the weight bucket `bucket`.
    static func key(_ instant: Int64, bucket: UInt64) -> UInt64 {
      let clamped = min(max(instant, -instantLimit), instantLimit - 1)
      // checked: `clamped + instantLimit` lies in 0 ..< 2^40, shifted below 2^64.
      return UInt64(clamped + instantLimit) << weightBits | bucket
    }

    /// The key of an entry at `instant` weighing `kilograms`.
    static func key(_ instant: Int64, kilograms: Double) -> UInt64 {
      key(instant, bucket: bucket(kilograms))
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
        Moments.key(log.instant(at: position), kilograms: log.kilograms(at: position)))
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
        moments.append(Moments.key(entry.instant, kilograms: entry.kilograms))
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

  /// Whether an entry may have the instant `instant` and a weight within 1e-9 kg of
  /// `kilograms`: true for every entry that has them, and for one whose weight is in a bucket
  /// beside (`Moments`).
  func mayMatch(_ instant: Int64, kilograms: Double) -> Bool {
    let low = Moments.key(instant, kilograms: kilograms - 1e-9)
    let high = Moments.key(instant, kilograms: kilograms + 1e-9)
    let place = Self.firstPlace(in: moments) { $0 < low }
    return place < moments.count && moments[place] <= high
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
