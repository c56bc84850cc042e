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

  /// A file of the store that cannot be read: the store is unreadable (exit 65), not a
  /// failed command.
  static func readError(_ path: String, _ action: String) -> StoreError {
    StoreError(
      .corrupt, file: path,
      message:
        "cannot \(action): \(reason().lowercased()); make the file "
        + "readable (or restore it from a backup) and run weigh check")
  }

  private static func simulatedCrash(_ path: String) -> StoreError {
    StoreError(.io, file: path, message: "cannot write: the process was stopped (simulated crash)")
  }

  /// Fails when the test's fault injector says the process is dead by now.
  static func step(_ path: String) throws(StoreError) {
    guard let injector = WriteFaultInjector.current else { return }
    if !injector.allow() { throw simulatedCrash(path) }
  }

  /// `fsync` (or `fdatasync` when `dataOnly`), skipped under a fault injector that says so.
  static func sync(_ descriptor: Int32, path: String, dataOnly: Bool = false) throws(StoreError) {
    try step(path)
    if WriteFaultInjector.current?.skipSync == true { return }
    let result = dataOnly ? fdatasync(descriptor) : fsync(descriptor)
    guard result == 0 else { throw ioError(path, "sync") }
  }

  /// `ftruncate`, counted as a writing call.
  static func truncate(_ descriptor: Int32, to length: Int, path: String) throws(StoreError) {
    try step(path)
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw ioError(path, "cut the end of")
    }
  }

  /// Checks that an open descriptor is a regular file (a directory opens fine for reading).
  private static func requireRegularFile(
    _ descriptor: Int32, _ path: String
  ) throws(StoreError) -> Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw readError(path, "read the size of") }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw StoreError(
        .corrupt, file: path,
        message:
          "is not a regular file (a directory?); put the store's file "
          + "back (restore it from a backup) and run weigh check")
    }
    return Int(status.st_size)  // checked: a file size; Int64 and Int have one width
  }

  /// A descriptor of the file at `path` opened for reading, or nil when it does not exist.
  private static func openForReading(_ path: String) throws(StoreError) -> Int32? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw readError(path, "open")
    }
    return descriptor
  }

  /// The file's whole contents, or nil when it does not exist.
  static func read(_ path: String) throws(StoreError) -> [UInt8]? {
    try read(path, limit: nil)
  }

  /// At most `limit` bytes from the start of the file (all of it when nil); nil when the file
  /// does not exist.
  static func read(_ path: String, limit: Int?) throws(StoreError) -> [UInt8]? {
    guard let descriptor = try openForReading(path) else { return nil }
    defer { close(descriptor) }
    var wanted = try requireRegularFile(descriptor, path)
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
    if failed { throw readError(path, "read") }
    if limit == nil {
      // The file may have grown since fstat (another reader of a store being appended to).
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let got = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
        if got < 0 && errno == EINTR { continue }
        if got < 0 { throw readError(path, "read") }
        if got == 0 { break }
        bytes.append(contentsOf: chunk[0..<got])
      }
    }
    return bytes
  }

  /// The file's bytes through its last newline (all of them when only blanks follow it),
  /// and its size, or nil when it does not exist. What follows the last newline, a journal
  /// record torn by a kill, is looked at a piece at a time from the file's end and never
  /// held: a kill during a streamed import of 4,000,000 rows left 576 MB of it, which opening
  /// and `weigh check` read whole with the rest (600 and 566 MiB at the peak; 24 and 23 MiB
  /// now, jrec18).
  ///
  /// Blanks are spaces, tabs and carriage returns: a last line of them alone is read as a
  /// line (`StoreJournal.parse` skips it), not as a torn record.
  ///
  /// With `largeLine`, a last whole line of that many bytes or more is not read either:
  /// `lines` then ends where it starts, and `large` is its range (without its newline), for
  /// the caller to read a piece at a time (`StoreJournal.readLargeRecord`).
  static func readLines(
    _ path: String, pieceBytes: Int = tailPiece, largeLine: Int = .max
  ) throws(StoreError) -> (lines: [UInt8], size: Int, large: Range<Int>?)? {
    guard let descriptor = try openForReading(path) else { return nil }
    defer { close(descriptor) }
    let size = try requireRegularFile(descriptor, path)
    var piece: [UInt8] = []
    var end = size
    var blank = true
    var linesEnd = 0
    // A sound journal ends with its newline: its last page is all that is looked at twice.
    var step = min(pieceBytes, 4096)
    search: while end > 0 {
      let start = max(0, end - step)
      step = pieceBytes
      guard try readFully(descriptor, path, at: start, count: end - start, into: &piece) else {
        throw readError(path, "read (the file was cut short while it was read)")
      }
      let found = piece.withUnsafeBufferPointer { bytes -> Int? in
        var index = bytes.count
        while blank, index > 0 {
          let byte = bytes[index - 1]
          if byte == 0x0A { return index - 1 }
          if byte != 0x20 && byte != 0x09 && byte != 0x0D { blank = false }
          index -= 1
        }
        // The last newline before `index`, found forward by `memchr` (no `memrchr` here):
        // one call over a piece of a torn record, which holds none.
        guard let base = bytes.baseAddress else { return nil }
        var last: Int?
        var from = 0
        while from < index, let newline = memchr(base + from, 0x0A, index - from) {
          last = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
          from = last! + 1
        }
        return last
      }
      if let found {
        linesEnd = start + found + 1
        break search
      }
      end = start
    }
    var wanted = blank ? size : linesEnd
    var large: Range<Int>?
    if largeLine < .max, linesEnd > 1, wanted == linesEnd {
      let start = try lineStart(
        descriptor, path, before: linesEnd - 1, pieceBytes: pieceBytes, piece: &piece)
      if start > 0, linesEnd - 1 - start >= largeLine {
        large = start..<linesEnd - 1
        wanted = start
      }
    }
    piece = []
    var lines: [UInt8] = []
    guard try readFully(descriptor, path, at: 0, count: wanted, into: &lines) else {
      throw readError(path, "read (the file was cut short while it was read)")
    }
    return (lines, size, large)
  }

  /// Where the line that ends at `end` (its newline's offset) starts: just after the newline
  /// before it, or 0. Looked for from `end` back, 4 KiB and then `pieceBytes` at a time.
  private static func lineStart(
    _ descriptor: Int32, _ path: String, before end: Int, pieceBytes: Int,
    piece: inout [UInt8]
  ) throws(StoreError) -> Int {
    var end = end
    var step = min(pieceBytes, 4096)
    while end > 0 {
      let start = max(0, end - step)
      step = pieceBytes
      guard try readFully(descriptor, path, at: start, count: end - start, into: &piece) else {
        throw readError(path, "read (the file was cut short while it was read)")
      }
      let found = piece.withUnsafeBufferPointer { bytes -> Int? in
        guard let base = bytes.baseAddress else { return nil }
        var last: Int?
        var from = 0
        while from < bytes.count, let newline = memchr(base + from, 0x0A, bytes.count - from) {
          last = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
          from = last! + 1
        }
        return last
      }
      if let found { return start + found + 1 }
      end = start
    }
    return 0
  }

  /// Reads `count` bytes at `offset` into `buffer` (emptied first); false when the file
  /// ends before them.
  private static func readFully(
    _ descriptor: Int32, _ path: String, at offset: Int, count: Int, into buffer: inout [UInt8]
  ) throws(StoreError) -> Bool {
    guard read(descriptor, at: offset, count: count, into: &buffer) else {
      throw readError(path, "read")
    }
    return buffer.count == count
  }

  /// Reads up to `count` bytes at `offset` of `descriptor` into `buffer` (emptied first),
  /// into the buffer's own room, not filled with zeros first (the compaction after a large
  /// import reads its journal back 4 MiB at a time); false when a read fails.
  static func read(
    _ descriptor: Int32, at offset: Int, count: Int, into buffer: inout [UInt8]
  ) -> Bool {
    buffer.removeAll(keepingCapacity: true)
    var failed = false
    buffer.append(addingCapacity: count) { span in
      span.withUnsafeMutableBufferPointer { target, done in
        while done < count {
          let got = pread(
            descriptor, target.baseAddress! + done, count - done, off_t(offset + done))
          if got < 0 && errno == EINTR { continue }
          if got < 0 {
            failed = true
            return
          }
          if got == 0 { break }
          done += got
        }
      }
    }
    return !failed
  }

  /// Hands the bytes of `range` of the file at `path` to `body`, `pieceBytes` at a time (the
  /// same buffer each time): a torn journal record, written aside and searched for ids
  /// without being held whole.
  ///
  /// - Throws: `corrupt` when the file cannot be read or ends before the range does, or what
  ///   `body` throws.
  static func readPieces(
    _ path: String, _ range: Range<Int>, pieceBytes: Int = tailPiece,
    _ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void
  ) throws(StoreError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw readError(path, "open") }
    defer { close(descriptor) }
    var piece: [UInt8] = []
    var start = range.lowerBound
    while start < range.upperBound {
      let count = min(pieceBytes, range.upperBound - start)
      guard try readFully(descriptor, path, at: start, count: count, into: &piece) else {
        throw readError(path, "read (the file was cut short while it was read)")
      }
      let result: Result<Void, StoreError> = piece.withUnsafeBufferPointer { bytes in
        do throws(StoreError) { return .success(try body(bytes)) } catch {
          return .failure(error)
        }
      }
      try result.get()
      start += count
    }
  }

  /// The number of newlines in the first `count` bytes of the file at `path`, read a piece
  /// at a time: the lines before the part of a large file that a reader had (an error's
  /// line, `TableFile.forEachRow`).
  static func newlines(in path: String, before count: Int) throws(StoreError) -> Int {
    var lines = 0
    try readPieces(path, 0..<count) { piece in lines += piece.count { $0 == 0x0A } }
    return lines
  }

  /// The bytes `readLines` and `readPieces` read at a time.
  static let tailPiece = 1 << 20

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
    _ path: String, populate: Bool = true, populatingUpTo limit: Int = .max,
    _ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> R
  ) throws(StoreError) -> R? {
    guard let descriptor = try openForReading(path) else { return nil }
    defer { close(descriptor) }
    let size = try requireRegularFile(descriptor, path)
    guard size > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    #if os(Linux)
      let flags = populate && size <= limit ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
    #else
      let flags = MAP_PRIVATE
    #endif
    guard let address = mmap(nil, size, PROT_READ, flags, descriptor, 0), address != MAP_FAILED
    else { throw readError(path, "map") }
    defer { munmap(address, size) }
    return try body(
      UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size))
  }

  /// The file at `path` mapped read-only, for a reader that outlives one call
  /// (`TableFile.Cursor`); nil when it does not exist. Given back with ``unmap(_:)``.
  static func mapFile(_ path: String) throws(StoreError) -> UnsafeBufferPointer<UInt8>? {
    guard let descriptor = try openForReading(path) else { return nil }
    defer { close(descriptor) }
    let size = try requireRegularFile(descriptor, path)
    guard size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else { throw readError(path, "map") }
    return UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
  }

  /// Unmaps what ``mapFile(_:)`` mapped.
  static func unmap(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
  }

  /// Opens an existing file for appending.
  static func openForAppending(_ path: String) throws(StoreError) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw ioError(path, "open") }
    return descriptor
  }

  /// Reads up to `count` bytes at `offset` of the file at `path` into `buffer` (emptied
  /// first); false when the file cannot be opened or read.
  static func read(
    _ path: String, at offset: Int, count: Int, into buffer: inout [UInt8]
  ) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { _ = close(descriptor) }
    return read(descriptor, at: offset, count: count, into: &buffer)
  }

  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// The last `count` bytes of the file (fewer when it is shorter), or nil when it does
  /// not exist.
  static func readTail(_ path: String, count: Int) throws(StoreError) -> [UInt8]? {
    guard let descriptor = try openForReading(path) else { return nil }
    defer { _ = close(descriptor) }
    let end = try requireRegularFile(descriptor, path)
    let length = min(Int(end), count)  // checked: a file size; Int64 and Int have one width
    var bytes = [UInt8](repeating: 0, count: length)
    let read = bytes.withUnsafeMutableBytes {
      pread(descriptor, $0.baseAddress, length, off_t(end) - off_t(length))
    }
    guard read == length else { throw readError(path, "read") }
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
    var limit = bytes.count
    if let injector = WriteFaultInjector.current, !injector.allow() {
      // Killed during the write: the first half may have reached the file.
      if bytes.count < 2 { throw simulatedCrash(path) }
      limit = bytes.count / 2
    }
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < limit {
        let wrote = write(descriptor, buffer.baseAddress! + done, limit - done)
        if wrote < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        done += wrote
      }
    }
    if failed { throw ioError(path, "write") }
    if limit < bytes.count { throw simulatedCrash(path) }
  }

  /// Replaces `path` with `bytes` so that a crash at any moment leaves either the old or the
  /// new file, through ``AtomicFileWriter/store``: write `path.tmp`, fsync it, rename it over,
  /// fsync the folder.
  static func replace(_ path: String, with bytes: [UInt8]) throws(StoreError) {
    do throws(FileWriteError) {
      try AtomicFileWriter.store.write(bytes, to: path)
    } catch {
      throw StoreError(.io, file: path, message: "cannot write: \(error.reason)")
    }
  }

  /// Replaces `path` as ``replace(_:with:)`` does, with the bytes `body` hands to the
  /// function it is given, in as many pieces as it likes.
  static func replace(
    _ path: String,
    writing body: (_ write: ([UInt8]) throws(FileWriteError) -> Void) throws(FileWriteError) -> Void
  ) throws(StoreError) {
    do throws(FileWriteError) {
      try AtomicFileWriter.store.write(to: path) { file in
        try body { (bytes) throws(FileWriteError) in try file.append(bytes) }
      }
    } catch {
      throw StoreError(.io, file: path, message: "cannot write: \(error.reason)")
    }
  }

  /// Writes a new file at `path` (which must not exist) as ``replace(_:with:)`` does: for
  /// copies kept aside. The bytes are written from where they are, a piece at a time, so a
  /// torn journal record of hundreds of megabytes is not copied whole first (opening after
  /// a kill in the middle of a streamed import of 4,000,000 rows held the journal and a
  /// copy of its 324 MB torn part: 649 MiB).
  static func create(_ path: String, with bytes: ArraySlice<UInt8>) throws(StoreError) {
    guard !exists(path) else {
      throw StoreError(.io, file: path, message: "cannot create: the file already exists")
    }
    try replace(path) { (write) throws(FileWriteError) in
      var start = bytes.startIndex
      while start < bytes.endIndex {
        let end = min(start + createPiece, bytes.endIndex)
        try write(Array(bytes[start..<end]))
        start = end
      }
    }
  }

  /// Writes a new file at `path` (which must not exist) as ``create(_:with:)`` does, with
  /// the bytes of `range` of the file at `source`, read and written `pieceBytes` at a time;
  /// each piece is shown to `each` once written.
  static func create(
    _ path: String, copying range: Range<Int>, of source: String,
    pieceBytes: Int = tailPiece, each: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(StoreError) {
    guard !exists(path) else {
      throw StoreError(.io, file: path, message: "cannot create: the file already exists")
    }
    var readFailure: StoreError?
    do throws(StoreError) {
      try replace(path) { (write) throws(FileWriteError) in
        var writeFailure: FileWriteError?
        do throws(StoreError) {
          try readPieces(source, range, pieceBytes: pieceBytes) { (piece) throws(StoreError) in
            do throws(FileWriteError) {
              try write(Array(piece))
            } catch {
              writeFailure = error
              throw StoreError(.io, file: path, message: error.reason)
            }
            each(piece)
          }
        } catch {
          if let writeFailure { throw writeFailure }
          readFailure = error
          throw FileWriteError(error.message)
        }
      }
    } catch {
      // The source's own error (a journal that cannot be read), not the copy's.
      throw readFailure ?? error
    }
  }

  /// The bytes `create(_:with:)` copies and writes at a time.
  static let createPiece = 1 << 20

  /// Writes `bytes` at offset 0 of an open file, in one call (the ack file).
  static func overwrite(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(StoreError) {
    try step(path)
    let wrote = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
    guard wrote == bytes.count else { throw ioError(path, "write") }
  }

  /// Opens an existing file for reading and writing (appending with `append`), or nil when
  /// it may only be read.
  static func openForWriting(_ path: String, append: Bool = false) throws(StoreError) -> Int32? {
    let descriptor = open(path, O_RDWR | O_CLOEXEC | (append ? O_APPEND : 0))
    if descriptor < 0 {
      if errno == EACCES || errno == EROFS || errno == EPERM { return nil }
      throw ioError(path, "open")
    }
    return descriptor
  }

  private static func systemRename(_ path: String, _ target: String) -> Int32 {
    #if canImport(Glibc)
      Glibc.rename(path, target)
    #else
      Darwin.rename(path, target)
    #endif
  }

  /// Renames `path` to `target` (in the same file system).
  static func rename(_ path: String, to target: String) throws(StoreError) {
    try step(path)
    guard systemRename(path, target) == 0 else { throw ioError(target, "move \(path) to") }
  }

  /// Removes the file `path`; one that is not there is not an error.
  static func remove(_ path: String) throws(StoreError) {
    try step(path)
    guard unlink(path) == 0 || errno == ENOENT else { throw ioError(path, "remove") }
  }

  /// Makes a rename or a new file in `directory` durable.
  static func syncDirectory(_ directory: String) throws(StoreError) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ioError(directory, "open the directory") }
    defer { close(descriptor) }
    try step(directory)
    if WriteFaultInjector.current?.skipSync == true { return }
    guard fsync(descriptor) == 0 else { throw ioError(directory, "sync the directory") }
  }

  /// True when `path` is a directory.
  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// The names in `directory` (without `.` and `..`), or [] when it cannot be listed.
  static func names(in directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
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
    try step(trimmed)
    if mkdir(trimmed, 0o755) != 0 && errno != EEXIST {
      throw ioError(trimmed, "create the directory")
    }
    try syncDirectory(parent)
  }
}
