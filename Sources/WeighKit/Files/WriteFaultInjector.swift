/// A test's stand-in for kill -9: it counts weigh's writing calls (the store's appends and
/// ``AtomicFileWriter``'s steps: write, truncate, rename, sync, …) and, once `remaining`
/// reaches zero, makes that call and every later one fail as if the process had died there.
/// A write that is cut off writes the first half of its bytes, as a kill during `write` may.
/// Installed for one task with `WriteFaultInjector.$current.withValue(_:operation:)`, so
/// parallel tests do not meet.
final class WriteFaultInjector: @unchecked Sendable {
  /// The injector of the running task, if any.
  @TaskLocal static var current: WriteFaultInjector?

  /// Writing calls allowed before the simulated crash; nil only counts them.
  var remaining: Int?
  /// The writing calls made so far.
  private(set) var count = 0
  /// True once the simulated crash has happened.
  private(set) var crashed = false
  /// Skips fsync and fdatasync, which a kill does not need (tests run faster).
  let skipSync: Bool

  init(remaining: Int? = nil, skipSync: Bool = true) {
    self.remaining = remaining
    self.skipSync = skipSync
  }

  /// Counts one call; false when it must not happen.
  func allow() -> Bool {
    if crashed { return false }
    count += 1
    if let left = remaining {
      if left <= 0 {
        crashed = true
        return false
      }
      remaining = left - 1
    }
    return true
  }
}
