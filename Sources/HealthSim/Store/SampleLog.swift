import Foundation

/// One sample type's change history in position order: live samples, deleted-object
/// records, and holes left by samples deleted later or records purged.
///
/// Positions only grow, so a binary search finds where an anchor's changes begin.
struct SampleLog: Sendable {
  /// What sits at a position.
  enum Item: Sendable {
    case sample(HealthSample)
    case deletion(DeletedObjectRecord)
    case removed
  }

  private(set) var positions: [Int64] = []
  private(set) var items: [Item] = []
  private(set) var liveSamples = 0
  private(set) var deletionRecords = 0
  private var holes = 0

  /// Number of slots, holes included.
  var count: Int { positions.count }

  /// Adds an item at a position greater than every position held.
  /// - Complexity: amortized O(1).
  mutating func append(_ item: Item, at position: Int64) {
    precondition(positions.last.map { $0 < position } ?? true, "positions must grow")
    positions.append(position)
    items.append(item)
    switch item {
    case .sample: liveSamples += 1
    case .deletion: deletionRecords += 1
    case .removed: holes += 1
    }
  }

  /// The index of the first slot whose position is greater than `position`.
  /// - Complexity: O(log n).
  func firstIndex(after position: Int64) -> Int {
    var low = 0
    var high = positions.count
    while low < high {
      let middle = (low + high) / 2
      if positions[middle] <= position { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The slot index holding `position`, if any.
  /// - Complexity: O(log n).
  func index(of position: Int64) -> Int? {
    let index = firstIndex(after: position - 1)
    return index < positions.count && positions[index] == position ? index : nil
  }

  /// Turns the item at `position` into a hole and returns what was there.
  /// - Complexity: O(log n).
  @discardableResult
  mutating func remove(at position: Int64) -> Item? {
    guard let index = index(of: position) else { return nil }
    let old = items[index]
    switch old {
    case .sample: liveSamples -= 1
    case .deletion: deletionRecords -= 1
    case .removed: return nil
    }
    items[index] = .removed
    holes += 1
    return old
  }

  /// Drops holes when they outnumber the live slots, so scans stay proportional to content.
  /// - Complexity: O(n) when it compacts, amortized O(1) per removal.
  mutating func compactIfSparse() {
    guard holes > 64, holes * 2 > positions.count else { return }
    var newPositions: [Int64] = []
    var newItems: [Item] = []
    newPositions.reserveCapacity(positions.count - holes)
    newItems.reserveCapacity(positions.count - holes)
    for (position, item) in zip(positions, items) {
      if case .removed = item { continue }
      newPositions.append(position)
      newItems.append(item)
    }
    positions = newPositions
    items = newItems
    holes = 0
  }

  /// Drops the deleted-object records deleted before `cutoff` (all of them when nil) from
  /// every log. Returns how many were dropped.
  /// - Complexity: O(n).
  static func purgeDeletions(in logs: inout [SampleLog], before cutoff: Date?) -> Int {
    var dropped = 0
    for ordinal in logs.indices {
      let log = logs[ordinal]
      for (position, item) in zip(log.positions, log.items) {
        guard case .deletion(let record) = item else { continue }
        if let cutoff, record.deletionDate >= cutoff { continue }
        logs[ordinal].remove(at: position)
        dropped += 1
      }
      logs[ordinal].compactIfSparse()
    }
    return dropped
  }

  /// Drops all but the newest `count` deleted-object records (by position) from every log.
  /// Returns how many were dropped.
  /// - Complexity: O(n log n).
  static func trimDeletions(in logs: inout [SampleLog], keeping count: Int) -> Int {
    var all: [(position: Int64, ordinal: Int)] = []
    for (ordinal, log) in logs.enumerated() {
      for (position, item) in zip(log.positions, log.items) {
        if case .deletion = item { all.append((position, ordinal)) }
      }
    }
    guard all.count > count else { return 0 }
    all.sort { $0.position < $1.position }
    let doomed = all.prefix(all.count - max(count, 0))
    for entry in doomed { logs[entry.ordinal].remove(at: entry.position) }
    for ordinal in logs.indices { logs[ordinal].compactIfSparse() }
    return doomed.count
  }

  /// The record at slot `index`, or nil for a hole.
  func record(atIndex index: Int) -> HealthRecord? {
    switch items[index] {
    case .sample(let sample): .sample(sample, position: positions[index])
    case .deletion(let record): .deletion(record, position: positions[index])
    case .removed: nil
    }
  }
}
