#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exclusive `flock` on a store's `weigh.lock`, held from open to close; the holder's
/// pid and command line are written into the file so that a waiting process can name it.
///
/// flock belongs to the open file description, so two opens in one process contend too.
final class StoreLock {
  /// The lock file's name inside the store directory.
  static let fileName = "weigh.lock"
  private var descriptor: Int32

  /// Takes the lock, polling every 20 ms for up to `timeout`.
  init(directory: String, timeout: Duration) throws(StoreError) {
    let path = StoreLocation.joinPath(directory, Self.fileName)
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw StoreFileSystem.ioError(path, "open the lock file") }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let error = StoreFileSystem.ioError(path, "lock")
        release()
        throw error
      }
      if clock.now >= deadline {
        let holder = Self.describeHolder(descriptor)
        // Not close(): deinit runs after a throwing init and would close the number again,
        // perhaps another thread's file by then.
        release()
        throw StoreError(
          .locked,
          message: "store \(directory) is in use by \(holder); wait for it to finish or stop it")
      }
      usleep(20_000)
    }
    var note = "\(getpid())\n"
    note += CommandLine.arguments.joined(separator: " ") + "\n"
    if ftruncate(descriptor, 0) == 0 {
      _ = Array(note.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
    }
  }

  private static func describeHolder(_ descriptor: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
    guard count > 0 else { return "another process" }
    let lines = String(decoding: buffer[0..<count], as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    // checked: parses text, nil when out of range
    guard let pid = Int(lines[0]) else { return "another process" }
    let command = lines.count > 1 ? String(lines[1]) : ""
    return command.isEmpty ? "process \(pid)" : "process \(pid) (\(command))"
  }

  /// Releases the lock; the file stays, since removing it would race with a waiting opener.
  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
