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
    descriptor = try Self.open(path)
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

  /// Opens (or creates) the lock file. One that may only be read still takes the lock (flock
  /// needs no write access); one that cannot be opened at all, or a folder in its place,
  /// makes the store unusable: `corrupt` (exit 65), naming the file and the fix.
  private static func open(_ path: String) throws(StoreError) -> Int32 {
    var descriptor = systemOpen(path, O_RDWR | O_CREAT | O_CLOEXEC)
    if descriptor < 0 && (errno == EACCES || errno == EPERM || errno == EROFS) {
      let refused = errno
      descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
      if descriptor < 0 && errno == ENOENT {
        // No lock file, and the folder does not let one be made.
        throw StoreError(
          .io, file: path,
          message:
            "cannot create the lock file: \(SystemProblem.describe(errno: refused)); "
            + "make the store's folder writable")
      }
    }
    if descriptor < 0 { throw unusable(path, errno: errno) }
    if let problem = notAFile(descriptor, path) {
      close(descriptor)
      throw problem
    }
    return descriptor
  }

  /// What would stop ``init(directory:timeout:)`` at the lock file of `directory`, found
  /// without creating or locking it (for `weigh check`); nil when nothing would.
  static func problem(in directory: String) -> StoreError? {
    let path = StoreLocation.joinPath(directory, fileName)
    let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { return errno == ENOENT ? nil : unusable(path, errno: errno) }
    defer { close(descriptor) }
    return notAFile(descriptor, path)
  }

  private static let fix = "; remove it (weigh makes a new one) or make it a readable file"

  private static func unusable(_ path: String, errno code: Int32) -> StoreError {
    if code == EISDIR { return StoreError(.corrupt, file: path, message: "is a folder" + fix) }
    return StoreError(
      .corrupt, file: path,
      message: "cannot open the lock file: \(SystemProblem.describe(errno: code))" + fix)
  }

  private static func notAFile(_ descriptor: Int32, _ path: String) -> StoreError? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return unusable(path, errno: errno) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return StoreError(.corrupt, file: path, message: "is a folder" + fix)
    default: return StoreError(.corrupt, file: path, message: "is not a regular file" + fix)
    }
  }

  private static func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags, 0o644)
    #else
      Darwin.open(path, flags, 0o644)
    #endif
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
