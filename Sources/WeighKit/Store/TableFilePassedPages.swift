#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives back the pages of a mapped table file that one reading thread has passed, a few
/// MiB at a time, so that a large table is not held in memory twice (its bytes and its
/// rows) while it is read: a 2,000,000-entry store's 316 MB `entries.json` counted whole in
/// the process's resident memory beside the rows made from it (a re-import of that many
/// rows peaked at 633 MiB, 324 MiB of it the mapped file).
///
/// The mapping is private and read-only, so dropping its pages loses nothing: a byte read
/// again (an error's position, the sequential pass after a failed split) is read from the
/// file again.
struct TableFilePassedPages {
  /// How far a thread reads between two calls to `madvise` (8 MiB unless a test says).
  private let step: Int
  private let base: UnsafeRawPointer?
  private let pageMask: Int
  /// Up to where (a page boundary) the pages were given back.
  private var released: Int

  /// For a thread that starts reading `bytes` (the whole mapping) at `offset`.
  init(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, step: Int = 8 << 20) {
    self.step = step
    base = UnsafeRawPointer(bytes.baseAddress)
    pageMask = ~(Self.pageSize - 1)
    released = offset & pageMask
  }

  /// Called as reading reaches `offset`: gives back the whole pages before it once a step
  /// has been passed since the last time.
  mutating func passed(_ offset: Int) {
    guard offset - released >= step, let base else { return }
    let end = offset & pageMask
    _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
    released = end
  }

  static let pageSize: Int = {
    // checked: _SC_PAGESIZE is a small constant of the C library, inside Int32.
    let size = sysconf(Int32(_SC_PAGESIZE))
    return size > 0 ? size : 4096
  }()
}
