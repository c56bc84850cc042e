#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be read, in weigh's own words.
public struct FileReadError: Error, Equatable, Sendable {
  /// What is wrong, lower case (`no such file`, `it is a folder`).
  public var reason: String
}

/// Reads whole files with POSIX calls, so that pipes, `/dev/null` and process substitution
/// (`weigh <(…)`) read as what they hold, and every failure is described by weigh.
public enum FileReader {
  /// All bytes of the file at `path`, refusing more than `limit`.
  public static func contents(of path: String, limit: Int) throws(FileReadError) -> [UInt8] {
    // A C path ends at the first NUL: "a\0b" would silently name "a".
    guard !path.utf8.contains(0) else {
      throw FileReadError(reason: "the file name contains a NUL character; remove it")
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure() }
    defer { close(descriptor) }
    var status = stat()
    var bytes: [UInt8] = []
    if fstat(descriptor, &status) == 0 {
      if status.st_mode & S_IFMT == S_IFDIR {
        throw FileReadError(reason: "it is a folder; give a file in it")
      }
      // A regular file's size is known: one allocation instead of growing chunk by chunk.
      if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
        bytes.reserveCapacity(min(Int(status.st_size), limit) + 1)  // checked: off_t is Int64
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure()
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else {
        throw FileReadError(reason: "it is larger than \(limit >> 20) MiB")
      }
      chunk.withUnsafeBufferPointer { bytes.append(contentsOf: $0[0..<count]) }
    }
  }

  private static func failure() -> FileReadError {
    switch errno {
    case ENOENT: FileReadError(reason: "no such file")
    case EACCES, EPERM: FileReadError(reason: "permission denied; make the file readable")
    case EISDIR: FileReadError(reason: "it is a folder; give a file in it")
    case let code: FileReadError(reason: SystemProblem.describe(errno: code))
    }
  }
}
