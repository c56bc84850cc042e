#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes a command writes once and reads back in order, on the store's disk but never part of
/// the store: the file is made in the store's folder and unlinked at once, so only its open
/// descriptor names it. Closing it (the object's end, whatever path the command takes) frees
/// its room, and a kill leaves nothing: no open reads it, nothing needs removing. A kill in
/// the instant between the file's creation and its unlinking leaves an empty file under its
/// name, which no weigh reads (`weigh check` notes it), emptied and unlinked by the next one.
///
/// Writes go through `StoreFileSystem.writeAll`, counted by a test's `WriteFaultInjector`.
final class StoreScratchFile {
  /// What the file's name adds to the table file's it is made for (`Store.scratchFile`).
  static let suffix = ".scratch.tmp"

  /// The name the file had, for messages.
  let path: String
  /// The bytes written so far.
  private(set) var length = 0
  private var descriptor: Int32

  /// Makes the file at `path` (emptied if there is one) and unlinks it.
  ///
  /// - Throws: `io` when it cannot be made.
  init(path: String) throws(StoreError) {
    self.path = path
    try StoreFileSystem.step(path)
    descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw StoreFileSystem.ioError(path, "make") }
    guard unlink(path) == 0 else {
      let error = StoreFileSystem.ioError(path, "remove")
      _ = close(descriptor)
      descriptor = -1
      throw error
    }
  }

  deinit {
    if descriptor >= 0 { _ = close(descriptor) }
  }

  /// Adds `bytes` at the end.
  ///
  /// - Throws: `io` when they cannot be written (what was written before stays readable).
  func append(_ bytes: [UInt8]) throws(StoreError) {
    try StoreFileSystem.writeAll(descriptor, bytes, path: path)
    length += bytes.count
  }

  /// Reads up to `count` bytes at `offset` into `buffer` (emptied first); false when the
  /// read fails.
  func read(at offset: Int, count: Int, into buffer: inout [UInt8]) -> Bool {
    StoreFileSystem.read(descriptor, at: offset, count: count, into: &buffer)
  }
}
