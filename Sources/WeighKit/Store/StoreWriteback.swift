#if canImport(Glibc)
  import Glibc
#endif

/// The disk's writing of a large file started while the file is still being written.
///
/// An import into a new store writes its journal record and its table file (about 70 MB for
/// 200,000 Fitbit logs) into the page cache as its rows stream, then `fdatasync`s the one and
/// `fsync`s the other: before, both waited there for every byte to reach the disk (41 and
/// 25 ms of a 0.28 s import, strace, wfit16). Asking for each piece to be written as soon as
/// it is in the file lets the disk write while the reader reads the next rows; the syncs then
/// wait for the last piece only.
///
/// Nothing of the crash story changes: the syncs are made where they were, and nothing
/// counts on a byte being on the disk before its sync returns (a piece written early is as
/// a piece the kernel chose to write early, which it may always do).
enum StoreWriteback {
  /// Starts writing to the disk the bytes of `descriptor` from `offset` to its end that are
  /// not on their way yet, without waiting for them. Linux with glibc only (`sync_file_range` with
  /// `SYNC_FILE_RANGE_WRITE`); elsewhere the later sync writes them, as before. A failure is
  /// ignored: the sync that follows reports any error of the disk.
  static func start(_ descriptor: Int32, from offset: Int) {
    guard let syncFileRange, descriptor >= 0 else { return }
    _ = syncFileRange(descriptor, Int64(offset), 0, writeFlag)  // checked: Int to Int64 widens
  }

  /// `SYNC_FILE_RANGE_WRITE` of Linux's `fcntl.h`.
  private static let writeFlag: UInt32 = 2

  /// glibc's `sync_file_range`, which Swift's Glibc module does not declare (it needs
  /// `_GNU_SOURCE`); nil elsewhere.
  private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range")
      else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    #else
      return nil
    #endif
  }()
}
