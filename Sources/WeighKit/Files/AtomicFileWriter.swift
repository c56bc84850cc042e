#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be written, in weigh's own words; nothing was written.
public struct FileWriteError: Error, Equatable, Sendable {
  /// What is wrong, lower case, naming the fix (`its folder does not exist; create it first`).
  public var reason: String
  /// The protected folder the path lies in, when that is why.
  public var protectedFolder: String?
  /// Whether writing had begun (a temporary file was made) before the failure; either way
  /// the target is as it was.
  public var begun = false

  public init(_ reason: String, protectedFolder: String? = nil) {
    self.reason = reason
    self.protectedFolder = protectedFolder
  }
}

/// What a write did to its target.
public enum FileWriteOutcome: Equatable, Sendable {
  /// A new file was made.
  case created
  /// An existing file was replaced, atomically.
  case replaced
  /// The target is a device or a pipe (`/dev/null`, a FIFO): the bytes were written to it
  /// as they came, since such a target has no contents to keep or replace.
  case streamed
}

/// The one way weigh writes a whole file (`export`, `chart … to`, `health export`, `weigh test
/// --update`, and the store's snapshots, `weigh.json` and its ack file): nothing is ever
/// half-written.
///
/// A write goes to a new temporary file in the target's own folder, which is synced, renamed
/// over the target and made durable by syncing the folder; a failure at any point leaves the
/// old file (or none) and removes the temporary file. A symbolic link is written through: the
/// file it points to is replaced and the link stays. An existing file keeps its permissions.
/// Paths inside a protected folder (the store) are refused, comparing real paths, so `..`,
/// links and relative paths cannot reach in.
///
/// Every step that changes the disk (create, write, sync, rename, sync the folder) is counted
/// by a test's ``WriteFaultInjector``, which can stop the write there as a kill would.
public struct AtomicFileWriter: Sendable {
  /// What the files written are for.
  public enum Kind: Sendable {
    /// A file a command produces: a device or pipe is written in place, a read-only file is
    /// refused, and the temporary file has a name of its own (`.NAME.weigh-PID-RANDOM.tmp`).
    case output
    /// One of the store's own files, written under the store's lock: the temporary file is
    /// `NAME.tmp` (one left by a crash is replaced, and `weigh check` knows the name), a
    /// device or pipe in the file's place is refused, a read-only file is replaced as the
    /// folder allows (the store is read-only when its journal is), and the folder must sync.
    case storeFile
  }

  /// What the files written are for.
  public var kind: Kind
  /// Folders no file may be written into.
  public var protectedFolders: [String]
  /// Says of a real folder path whether it is protected too (any folder holding a store,
  /// say), with the name to show for it.
  public var protectsFolder: (@Sendable (String) -> String?)?
  /// Whether a folder that cannot be synced after the rename is an error (the store wants
  /// that; for an export the rename is what matters).
  public var requiresFolderSync = false

  public init(
    protecting protectedFolders: [String] = [],
    andFolders protectsFolder: (@Sendable (String) -> String?)? = nil
  ) {
    self.protectedFolders = protectedFolders
    self.protectsFolder = protectsFolder
    kind = .output
  }

  /// The writer of the store's own files.
  static let store: AtomicFileWriter = {
    var writer = AtomicFileWriter()
    writer.kind = .storeFile
    writer.requiresFolderSync = true
    return writer
  }()

  /// Writes `bytes` as the whole contents of `path`.
  @discardableResult
  public func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) -> FileWriteOutcome {
    try write(to: path) { file in try file.append(bytes) }
  }

  /// Writes the file at `path` with what `body` appends to the temporary file it is given.
  ///
  /// An error from `body` removes the temporary file and is rethrown as a `FileWriteError`
  /// in weigh's own words.
  @discardableResult
  public func write(to path: String, _ body: (TemporaryFile) throws -> Void)
    throws(FileWriteError) -> FileWriteOutcome
  {
    let target = try prepare(path)
    do throws(FileWriteError) {
      return try write(to: target, original: path, body)
    } catch {
      var error = error
      // A device or pipe may have taken some bytes: only a real file is known untouched.
      error.begun = !target.streamed
      throw error
    }
  }

  private func write(
    to target: Target, original path: String, _ body: (TemporaryFile) throws -> Void
  ) throws(FileWriteError) -> FileWriteOutcome {
    if target.streamed {
      let descriptor =
        target.descriptor.map { dup($0) } ?? open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure("opening it") }
      defer { close(descriptor) }
      try run(body, on: TemporaryFile(descriptor: descriptor, path: path))
      return .streamed
    }
    let temporary = temporaryName(for: target)
    try Self.step()
    if kind == .storeFile { unlink(temporary) }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw Self.failure("creating a temporary file in its folder") }
    do throws(FileWriteError) {
      if let mode = target.existingMode, fchmod(descriptor, mode) != 0 {
        throw Self.failure("keeping its permissions")
      }
      try run(body, on: TemporaryFile(descriptor: descriptor, path: temporary))
      try Self.sync(descriptor)
    } catch {
      close(descriptor)
      Self.removeUnlessKilled(temporary)
      throw error
    }
    close(descriptor)
    return try commit(temporary, over: target)
  }

  /// Writes the file at `path` with a `body` that creates the file itself at the path it
  /// is given (a library that only writes to a path, such as a zip archiver).
  @discardableResult
  public func write(to path: String, creatingWith body: (String) throws -> Void)
    throws(FileWriteError) -> FileWriteOutcome
  {
    let target = try prepare(path)
    if target.streamed {
      throw FileWriteError(
        "it is a device or a pipe, and this format can only be written to a regular file; give a file name"
      )
    }
    do throws(FileWriteError) {
      return try write(to: target, creatingWith: body)
    } catch {
      var error = error
      error.begun = true
      throw error
    }
  }

  private func write(to target: Target, creatingWith body: (String) throws -> Void)
    throws(FileWriteError) -> FileWriteOutcome
  {
    let temporary = temporaryName(for: target)
    do throws(FileWriteError) {
      try Self.step()
      do {
        try body(temporary)
      } catch {
        throw FileWriteError(ZipProblem.describe(error) ?? SystemProblem.describe(error))
      }
      let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure("reopening what was written") }
      defer { close(descriptor) }
      if let mode = target.existingMode, fchmod(descriptor, mode) != 0 {
        throw Self.failure("keeping its permissions")
      }
      try Self.sync(descriptor)
    } catch {
      Self.removeUnlessKilled(temporary)
      throw error
    }
    return try commit(temporary, over: target)
  }

  /// The path a write to `path` replaces: symbolic links followed, the folder's real path.
  /// Nil when the path is a device or pipe (written in place) or cannot be resolved.
  public func resolvedTarget(of path: String) -> String? {
    guard let target = try? prepare(path), !target.streamed else { return nil }
    return target.path
  }

  // MARK: - Steps

  /// Where a write lands, found before anything is written.
  struct Target {
    /// The real path of the folder the file is in.
    var folder: String
    var name: String
    /// The permission bits of the file being replaced, if there is one.
    var existingMode: mode_t?
    /// A device or pipe: written in place.
    var streamed = false
    /// An open descriptor of this process the path names (`/dev/stdout`).
    var descriptor: Int32?
    var path: String { folder == "/" ? "/" + name : folder + "/" + name }
  }

  func prepare(_ path: String) throws(FileWriteError) -> Target {
    guard !path.isEmpty else { throw FileWriteError("the file name is empty; give one") }
    // A C path ends at the first NUL: "a\0b" would silently name "a".
    guard !path.utf8.contains(0) else {
      throw FileWriteError("the file name contains a NUL character; remove it")
    }
    var status = stat()
    // Devices and pipes first, as the kernel finds them: /dev/stdout is a link to a link to
    // "pipe:[…]", which is no path to follow by hand.
    if let descriptor = Self.descriptor(namedBy: path) {
      return Target(folder: "", name: path, streamed: true, descriptor: descriptor)
    }
    if kind == .output, stat(path, &status) == 0,
      [S_IFCHR, S_IFIFO].contains(status.st_mode & S_IFMT)
    {
      return Target(folder: "", name: path, streamed: true)
    }
    let linked = try Self.followLinks(path)
    var existingMode: mode_t?
    if stat(linked, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        existingMode = status.st_mode & 0o7777
        // The rename would replace a read-only file as readily as any other.
        if kind == .output, access(linked, W_OK) != 0 {
          throw FileWriteError("it is read-only; make it writable or give another name")
        }
      case S_IFDIR: throw FileWriteError("it is a folder; give a file name inside it")
      default: throw FileWriteError("it is not a regular file; give another name")
      }
    } else if errno != ENOENT {
      throw Self.failure("looking it up")
    }
    let (folderPath, name) = Self.split(linked)
    guard name != "." && name != ".." else {
      throw FileWriteError("it is a folder; give a file name inside it")
    }
    guard let folder = Self.realPath(folderPath) else {
      if errno == ENOENT {
        throw FileWriteError("its folder does not exist; create it first")
      }
      throw Self.failure("finding its folder")
    }
    let target = Target(folder: folder, name: name, existingMode: existingMode)
    for protected in protectedFolders {
      guard let real = Self.realPath(protected) else { continue }
      let inside = real == "/" ? true : target.path.hasPrefix(real + "/") || target.path == real
      if inside { throw Self.insideStore(protected) }
    }
    if let protectsFolder, let shown = protectsFolder(target.folder) {
      throw Self.insideStore(shown)
    }
    return target
  }

  private func run(_ body: (TemporaryFile) throws -> Void, on file: TemporaryFile)
    throws(FileWriteError)
  {
    do {
      try body(file)
    } catch let error as FileWriteError {
      throw error
    } catch {
      throw FileWriteError(ZipProblem.describe(error) ?? SystemProblem.describe(error))
    }
  }

  func commit(_ temporary: String, over target: Target) throws(FileWriteError)
    -> FileWriteOutcome
  {
    // Whether the target exists is asked again here: what counts is the moment of the rename.
    let existed = access(target.path, F_OK) == 0
    do throws(FileWriteError) {
      try Self.step()
    } catch {
      Self.removeUnlessKilled(temporary)
      throw error
    }
    guard rename(temporary, target.path) == 0 else {
      let error = Self.failure("renaming the temporary file over it")
      unlink(temporary)
      throw error
    }
    // The rename is done; a folder that cannot be synced (some file systems refuse) only
    // makes it less durable against a power cut, so it is an error only when asked.
    let folder = open(target.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    var synced = false
    do throws(FileWriteError) {
      if folder >= 0 {
        try Self.sync(folder)
        synced = true
      }
    } catch {
      close(folder)
      throw error
    }
    if !synced && requiresFolderSync {
      let error = Self.failure("syncing its folder")
      if folder >= 0 { close(folder) }
      throw error
    }
    if folder >= 0 { close(folder) }
    return existed ? .replaced : .created
  }

  // MARK: - Paths

  /// `path` with symbolic links in its last component followed (up to 40, as the kernel
  /// does); the path of the file a write should replace.
  static func followLinks(_ path: String) throws(FileWriteError) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
        return current
      }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)  // checked: Int32 widens
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length >= 0 else { throw failure("reading the symbolic link") }
      let destination = String(
        decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if destination.hasPrefix("/") {
        current = destination
      } else {
        let folder = split(current).folder
        current = folder == "/" ? "/" + destination : folder + "/" + destination
      }
    }
    throw FileWriteError("the path has too many symbolic links")
  }

  /// The descriptor `path` names, when it is one of the process's open files (`/dev/stdout`,
  /// `/dev/fd/3`): such a file is written through that descriptor, sharing its offset, even
  /// when it is a regular file, as reopening or replacing it would clobber what else goes
  /// there.
  static func descriptor(namedBy path: String) -> Int32? {
    var current = path
    for _ in 0..<8 {
      switch current {
      case "/dev/stdout": return STDOUT_FILENO
      case "/dev/stderr": return STDERR_FILENO
      default: break
      }
      for prefix in ["/dev/fd/", "/proc/self/fd/"] where current.hasPrefix(prefix) {
        return Int32(current.dropFirst(prefix.count))  // checked: parses text
      }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)  // checked: Int32 widens
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      current = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return nil
  }

  /// The folder and the last component of `path` (`.` for a bare name).
  static func split(_ path: String) -> (folder: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
    let folder = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    return (folder, String(trimmed[trimmed.index(after: slash)...]))
  }

  /// The canonical absolute path of an existing file or folder.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Where the bytes for `target` go first: `NAME.tmp` for a store file, else a fresh name.
  func temporaryName(for target: Target) -> String {
    kind == .storeFile
      ? target.path + ".tmp" : Self.temporaryName(in: target.folder, for: target.name)
  }

  /// A fresh name beside the target: hidden, unique to this process and write.
  static func temporaryName(in folder: String, for name: String) -> String {
    let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    // A long name is shortened, so the temporary name fits where the target's does.
    let stem = String(decoding: Array(name.utf8.prefix(120)), as: UTF8.self)
    let file = ".\(stem).weigh-\(getpid())-\(random).tmp"
    return folder == "/" ? "/" + file : folder + "/" + file
  }

  static func insideStore(_ folder: String) -> FileWriteError {
    FileWriteError(
      "it is inside a store folder, which only weigh itself writes; give a path outside it",
      protectedFolder: folder)
  }

  static func failure(_ action: String) -> FileWriteError {
    FileWriteError("\(action) failed: \(SystemProblem.describe(errno: errno))")
  }

  // MARK: - Counted steps

  /// Counts one step that changes the disk for a test's ``WriteFaultInjector``; throws when
  /// the injector says the process is dead by now.
  static func step() throws(FileWriteError) {
    guard let injector = WriteFaultInjector.current, !injector.allow() else { return }
    throw simulatedCrash
  }

  static let simulatedCrash = FileWriteError("the process was stopped (simulated crash)")

  /// `fsync`, counted as a step (and skipped under an injector that says so).
  static func sync(_ descriptor: Int32) throws(FileWriteError) {
    try step()
    if WriteFaultInjector.current?.skipSync == true { return }
    guard fsync(descriptor) == 0 else { throw failure("syncing it to disk") }
  }

  /// Removes a temporary file after a failure, unless the failure is a simulated kill, which
  /// leaves the file behind as a real one would.
  static func removeUnlessKilled(_ temporary: String) {
    if WriteFaultInjector.current?.crashed != true { unlink(temporary) }
  }
}

/// The file being written, handed to the body of ``AtomicFileWriter/write(to:_:)``.
public final class TemporaryFile {
  let descriptor: Int32
  /// Where the bytes go until the file is renamed into place.
  public let path: String

  /// A terminal (`export /dev/tty`): what is written is shown escaped, as all output is.
  let isTerminal: Bool

  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
    isTerminal = isatty(descriptor) == 1
  }

  /// Appends `bytes`, retrying short writes.
  public func append(_ bytes: [UInt8]) throws(FileWriteError) {
    if isTerminal {
      let text = String(decoding: bytes, as: UTF8.self)
      if TerminalText.needsEscaping(text) {
        return try appendAll(Array(TerminalText.escaped(text).utf8))
      }
    }
    try appendAll(bytes)
  }

  private func appendAll(_ bytes: [UInt8]) throws(FileWriteError) {
    var failed = false
    var limit = bytes.count
    if let injector = WriteFaultInjector.current, !injector.allow() {
      // Killed during the write: the first half may have reached the file.
      if bytes.count < 2 { throw AtomicFileWriter.simulatedCrash }
      limit = bytes.count / 2
    }
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < limit {
        let wrote = systemWrite(descriptor, buffer.baseAddress! + done, limit - done)
        if wrote < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        done += wrote
      }
    }
    if failed { throw AtomicFileWriter.failure("writing") }
    if limit < bytes.count { throw AtomicFileWriter.simulatedCrash }
  }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
  #else
    Darwin.write(descriptor, buffer, count)
  #endif
}
