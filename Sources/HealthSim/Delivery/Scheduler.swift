import Foundation

/// A discrete-event queue: a binary min-heap ordered by time, then by insertion.
///
/// Equal times run in the order they were scheduled, so runs are deterministic.
public struct Scheduler: Codable, Hashable, Sendable {
  /// What an entry does when it runs.
  public enum Action: Codable, Hashable, Sendable {
    /// Deliver to observers of a type.
    case delivery(SampleType)
    /// Take the next reading of the named simulation.
    case reading(String)
  }

  /// One scheduled action.
  public struct Entry: Codable, Hashable, Sendable {
    /// When it runs.
    public let date: Date
    /// Insertion order, the tie-breaker for equal dates.
    public let sequence: UInt64
    /// What it does.
    public let action: Action

    func runsBefore(_ other: Entry) -> Bool {
      (date, sequence) < (other.date, other.sequence)
    }
  }

  private var heap: [Entry] = []
  private var nextSequence: UInt64 = 1

  /// An empty queue.
  public init() {}

  /// Number of entries, stale ones included.
  public var count: Int { heap.count }

  /// The entry that runs next.
  public var next: Entry? { heap.first }

  /// Queues `action` at `date` and returns the entry's sequence number.
  /// - Complexity: O(log n).
  @discardableResult
  public mutating func schedule(_ action: Action, at date: Date) -> UInt64 {
    let entry = Entry(date: date, sequence: nextSequence, action: action)
    nextSequence += 1
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].runsBefore(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
    return entry.sequence
  }

  /// Removes and returns the entry that runs next.
  /// - Complexity: O(log n).
  public mutating func pop() -> Entry? {
    guard !heap.isEmpty else { return nil }
    heap.swapAt(0, heap.count - 1)
    let first = heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].runsBefore(heap[smallest]) { smallest = left }
      if right < heap.count, heap[right].runsBefore(heap[smallest]) { smallest = right }
      if smallest == parent { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
    return first
  }
}
