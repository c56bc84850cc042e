import Foundation

extension Session {
  /// The writer for files commands produce. It refuses every path inside this session's
  /// store, the default store (a `--memory` session must not overwrite it either) and any
  /// folder that holds a store's manifest and journal.
  var fileWriter: AtomicFileWriter {
    var folders: [String] = []
    if case .directory(let folder) = options.store { folders.append(folder) }
    if case .directory(let folder) = StoreLocation.resolve(
      environment: ProcessInfo.processInfo.environment)
    {
      folders.append(folder)
    }
    return AtomicFileWriter(protecting: folders) { folder in
      let files = [StoreManifest.fileName, StoreJournal.fileName]
      return files.allSatisfy { access(folder + "/" + $0, F_OK) == 0 } ? folder : nil
    }
  }

  /// Writes a file a command produces: `-` is stdout, anything else goes through
  /// ``fileWriter`` (atomic, never inside the store). `body` hands over the bytes in order.
  ///
  /// - Returns: what happened to the file; nil for stdout.
  /// - Throws: a diagnostic at `span` naming `path` as the user wrote it; nothing was written.
  func writeOutputFile(
    _ path: String, at span: SourceSpan, _ body: (_ write: ([UInt8]) throws -> Void) throws -> Void
  ) throws(Diagnostic) -> FileWriteOutcome? {
    if path == "-" {
      do {
        try body { sink.writeData($0) }
      } catch {
        throw Diagnostic(
          "cannot write to standard output: \(FileProblem.describe(error))", at: span)
      }
      return nil
    }
    let resolved = resolvePath(path)
    // A device such as /dev/stdout is written directly: what was printed goes first.
    sink.flush()
    do throws(FileWriteError) {
      let outcome = try fileWriter.write(to: resolved) { file in
        try body { try file.append($0) }
      }
      if outcome == .created { sink.didCreate(file: resolved) }
      return outcome
    } catch {
      throw Self.writeFailure(error, path: path, at: span)
    }
  }

  /// Writes a file through a library that creates it at a path itself (a zip archiver).
  func writeOutputFile(
    _ path: String, at span: SourceSpan, creatingWith body: (String) throws -> Void
  )
    throws(Diagnostic) -> FileWriteOutcome
  {
    let resolved = resolvePath(path)
    do throws(FileWriteError) {
      let outcome = try fileWriter.write(to: resolved, creatingWith: body)
      if outcome == .created { sink.didCreate(file: resolved) }
      return outcome
    } catch {
      throw Self.writeFailure(error, path: path, at: span)
    }
  }

  static func writeFailure(_ error: FileWriteError, path: String, at span: SourceSpan) -> Diagnostic
  {
    Diagnostic(
      "cannot write \(path): \(error.reason)\(error.begun ? "; nothing was written" : "")", at: span
    )
  }
}

extension FileWriteOutcome? {
  /// What a command adds to its report line: that an existing file was replaced.
  var note: String {
    self == .replaced ? " (replaced the old file)" : ""
  }
}

extension Session {
  /// `path` resolved against the folder of the script being run (the working folder in
  /// the REPL and for -e): the one resolver of the files commands name.
  func resolvePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let base = script.sources.last?.directory ?? FileManager.default.currentDirectoryPath
    return (base as NSString).appendingPathComponent(path)
  }
}
