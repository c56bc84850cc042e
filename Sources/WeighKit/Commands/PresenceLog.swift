/// The log as a re-import looks it up (`PresenceIndex`, `PresenceClaims`): per entry only its
/// number, instant, file time, weight and source. The entries themselves (`[Entry]`, when a
/// command has read the log) or a compact copy of those fields read from the table's file
/// (`CompactLog`), in increasing number order.
protocol PresenceLog {
  /// How many entries.
  var count: Int { get }
  /// The number of the entry at `position`.
  func id(at position: Int) -> Int
  /// The instant of the entry at `position`.
  func instant(at position: Int) -> Int64
  /// The file time of the entry at `position` (`Entry.fileTime`).
  func fileTime(at position: Int) -> Int64?
  /// The weight of the entry at `position`, in kg.
  func kilograms(at position: Int) -> Double
  /// Whether the entry at `position` has `source` and a weight within 1e-9 kg of
  /// `kilograms`.
  func matches(at position: Int, source: String, kilograms: Double) -> Bool
}

extension PresenceLog {
  /// The largest entry number, 0 for an empty log.
  var largestID: Int {
    var largest = 0
    for position in 0..<count { largest = max(largest, id(at: position)) }
    return largest
  }
}

extension Array: PresenceLog where Element == Entry {
  func id(at position: Int) -> Int { self[position].id }
  func instant(at position: Int) -> Int64 { self[position].instant }
  func fileTime(at position: Int) -> Int64? { self[position].fileTime }
  func kilograms(at position: Int) -> Double { self[position].kilograms }
  func matches(at position: Int, source: String, kilograms: Double) -> Bool {
    self[position].source == source && abs(self[position].kilograms - kilograms) <= 1e-9
  }
}

/// What an import's plan asks of the log it adds to: `PresenceClaims`, or what a re-import
/// that checked every weight as the file was read found walking the log (`LogWalk.Summary`).
protocol ImportPlanLog {
  /// How many entries the log has.
  var entryCount: Int { get }
  /// The largest entry number, 0 for an empty log.
  var largestID: Int { get }
  /// The numbers in use, with those of `entries` (weigh's own file's) insertable.
  func numbersInUse(keeping entries: [Entry]) -> NumbersInUse
  /// Claims an unused entry that matches `weight` (with number `id`, when given); false
  /// when none does (`PresenceClaims.claim`).
  mutating func claim(_ weight: borrowing ImportedWeight, id: Int?) -> Bool
}
