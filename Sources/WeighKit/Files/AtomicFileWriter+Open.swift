#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file the atomic writer writes over more than one call: opened (its temporary file
/// made), appended to as the bytes are made, then finished (synced, renamed over its target,
/// the folder synced) or abandoned (the temporary file removed). The steps and their order
/// are those of ``AtomicFileWriter/write(to:_:)``; only the body is spread over time (the
/// store writes a table's file as the rows of an import go to its journal, and renames it
/// after the journal's `fdatasync`).
final class OpenAtomicFile {
  let file: TemporaryFile
  fileprivate let target: AtomicFileWriter.Target
  fileprivate let writer: AtomicFileWriter
  fileprivate var isOpen = true

  fileprivate init(file: TemporaryFile, target: AtomicFileWriter.Target, writer: AtomicFileWriter) {
    self.file = file
    self.target = target
    self.writer = writer
  }

  /// The temporary file's path.
  var temporaryPath: String { file.path }

  /// Appends `bytes` to the temporary file.
  func append(_ bytes: [UInt8]) throws(FileWriteError) {
    guard isOpen else { throw FileWriteError("the file was already finished or abandoned") }
    do throws(FileWriteError) {
      try file.append(bytes)
    } catch {
      abandon()
      throw error
    }
  }

  /// Syncs the temporary file, renames it over the target and syncs the folder.
  @discardableResult
  func finish() throws(FileWriteError) -> FileWriteOutcome {
    guard isOpen else { throw FileWriteError("the file was already finished or abandoned") }
    isOpen = false
    do throws(FileWriteError) {
      try AtomicFileWriter.sync(file.descriptor)
    } catch {
      close(file.descriptor)
      AtomicFileWriter.removeUnlessKilled(file.path)
      throw error
    }
    close(file.descriptor)
    return try writer.commit(file.path, over: target)
  }

  /// Closes and removes the temporary file (left in place after a simulated kill, as a
  /// real kill would leave it); the target is untouched. Does nothing once finished.
  func abandon() {
    guard isOpen else { return }
    isOpen = false
    close(file.descriptor)
    AtomicFileWriter.removeUnlessKilled(file.path)
  }

  deinit { abandon() }
}

extension AtomicFileWriter {
  /// Opens the temporary file of a write to `path` (``OpenAtomicFile``). A device or a pipe
  /// is refused: only a file renamed into place can be written over time.
  func openTemporary(_ path: String) throws(FileWriteError) -> OpenAtomicFile {
    let target = try prepare(path)
    guard !target.streamed else {
      throw FileWriteError("it is a device or a pipe; give a file name")
    }
    let temporary = temporaryName(for: target)
    try Self.step()
    if kind == .storeFile { unlink(temporary) }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw Self.failure("creating a temporary file in its folder") }
    if let mode = target.existingMode, fchmod(descriptor, mode) != 0 {
      close(descriptor)
      Self.removeUnlessKilled(temporary)
      throw Self.failure("keeping its permissions")
    }
    return OpenAtomicFile(
      file: TemporaryFile(descriptor: descriptor, path: temporary), target: target, writer: self)
  }
}
