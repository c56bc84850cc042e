#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX calls the store makes, each turning a failure into a `StoreError` of kind `io`
/// that names the file and the system's reason.
enum StoreFileSystem {
  static func reason() -> String { String(cString: strerror(errno)) }

  static func ioError(_ path: String, _ action: String) -> StoreError {
    StoreError(.io, file: path, message: "cannot \(action): \(reason().lowercased())")
  }

  /// The file's whole contents, or nil when it does not exist.
  static func read(_ path: String) throws(StoreError) -> [UInt8]? {
    try read(path, limit: nil)
  }

  /// At most `limit` bytes from the start of the file (all of it when nil); nil when the file
  /// does not exist.
  static func read(_ path: String, limit: Int?) throws(StoreError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw ioError(path, "open")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw ioError(path, "read the size of") }
    // checked: a file size or offset; Int64 and Int have one width
    var wanted = Int(status.st_size)
    if let limit { wanted = min(wanted, limit) }
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
      while count < wanted {
        let got = systemRead(descriptor, buffer.baseAddress! + count, wanted - count)
        if got < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        if got == 0 { return }
        count += got
      }
    }
    if failed { throw ioError(path, "read") }
    if limit == nil {
      // The file may have grown since fstat (another reader of a store being appended to).
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let got = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
        if got < 0 && errno == EINTR { continue }
        if got < 0 { throw ioError(path, "read") }
        if got == 0 { break }
        bytes.append(contentsOf: chunk[0..<got])
      }
    }
    return bytes
  }

  private static func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
  ) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  /// Runs `body` over the file's bytes mapped into memory (prefaulted from the page cache,
  /// which saves the copy that `read` makes: about 0.1 s for a 110 MB table); nil when the
  /// file does not exist.
  ///
  /// - Parameter populate: false when only a few pages will be touched (a binary search).
  static func withMappedFile<R>(
    _ path: String, populate: Bool = true,
    _ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> R
  ) throws(StoreError) -> R? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw ioError(path, "open")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw ioError(path, "read the size of") }
    let size = Int(status.st_size)  // checked: a file size or offset; Int64 and Int have one width
    guard size > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    #if os(Linux)
      let flags = populate ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
    #else
      let flags = MAP_PRIVATE
    #endif
    guard let address = mmap(nil, size, PROT_READ, flags, descriptor, 0), address != MAP_FAILED
    else { throw ioError(path, "map") }
    defer { munmap(address, size) }
    return try body(
      UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size))
  }

  /// Opens an existing file for appending.
  static func openForAppending(_ path: String) throws(StoreError) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw ioError(path, "open") }
    return descriptor
  }

  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// The last `count` bytes of the file (fewer when it is shorter), or nil when it does
  /// not exist.
  static func readTail(_ path: String, count: Int) throws(StoreError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw ioError(path, "open")
    }
    defer { _ = close(descriptor) }
    let end = lseek(descriptor, 0, SEEK_END)
    guard end >= 0 else { throw ioError(path, "seek in") }
    // checked: a file size or offset; Int64 and Int have one width
    let length = min(Int(end), count)
    var bytes = [UInt8](repeating: 0, count: length)
    let read = bytes.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress, length, off_t(end) - off_t(length))
    }
    guard read == length else { throw ioError(path, "read") }
    return bytes
  }

  /// The file's size in bytes, or nil when it does not exist.
  static func size(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_size)  // checked: a file size or offset; Int64 and Int have one width
  }

  /// The file's size and modification time (to the nanosecond) as text, or nil when it does
  /// not exist: when it differs from the one recorded, something else wrote the file.
  static func stamp(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = status.st_mtimespec
    #else
      let modified = status.st_mtim
    #endif
    let nanoseconds = String(modified.tv_nsec)
    return "\(status.st_size) bytes, modified \(modified.tv_sec)."
      + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
  }

  static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Writes all of `bytes` to `descriptor`, retrying short writes.
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(StoreError) {
    var failed = false
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let wrote = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
        if wrote < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        done += wrote
      }
    }
    if failed { throw ioError(path, "write") }
  }

  /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old or the
  /// new file: write a temporary sibling, fsync it, rename it over, fsync the directory.
  static func replace(_ path: String, with bytes: [UInt8], directory: String) throws(StoreError) {
    let temporary = path + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw ioError(temporary, "create") }
    do throws(StoreError) {
      try writeAll(descriptor, bytes, path: temporary)
      guard fsync(descriptor) == 0 else { throw ioError(temporary, "sync") }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else { throw ioError(path, "rename \(temporary) to") }
    try syncDirectory(directory)
  }

  /// Makes a rename or a new file in `directory` durable.
  static func syncDirectory(_ directory: String) throws(StoreError) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ioError(directory, "open the directory") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw ioError(directory, "sync the directory") }
  }

  /// Creates `path` and any missing parents, syncing each new directory's parent.
  static func makeDirectory(_ path: String) throws(StoreError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw StoreError(.io, file: path, message: "the store path is a file; give a directory")
      }
      return
    }
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    let parent: String
    if let slash = trimmed.lastIndex(of: "/") {
      parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    } else {
      parent = "."
    }
    if parent != trimmed { try makeDirectory(parent) }
    if mkdir(trimmed, 0o755) != 0 && errno != EEXIST {
      throw ioError(trimmed, "create the directory")
    }
    try syncDirectory(parent)
  }
}
