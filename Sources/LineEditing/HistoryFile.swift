@preconcurrency import CReadline
import Glibc

/// Readline's in-memory history tied to one file that is updated after every accepted line.
struct HistoryFile {
  /// The most entries kept in memory and in the file.
  static let capacity: Int32 = 1000

  /// Where the history lives.
  let path: String

  /// Creates the file's parent directories and loads what an earlier session saved.
  ///
  /// Returns a problem description instead of failing: a REPL without history still works.
  static func open(path: String) -> (HistoryFile, problem: String?) {
    let history = HistoryFile(path: path)
    using_history()
    stifle_history(capacity)
    if let failure = makeParentDirectories(of: path) {
      return (history, "cannot create the folder for history file \(path): \(failure)")
    }
    let status = read_history(path)
    if status != 0, status != ENOENT {
      return (history, "cannot read history file \(path): \(describe(status))")
    }
    return (history, nil)
  }

  /// Adds `line` to memory and to the file; returns a problem description if the file write failed.
  ///
  /// - Complexity: O(*n*) in the history length, because the file is trimmed to `capacity`.
  func record(_ line: String) -> String? {
    add_history(line)
    // Appending, rather than rewriting, keeps lines from another session that shares the file.
    var status = append_history(1, path)
    if status == ENOENT {
      status = write_history(path)
    }
    if status == 0 {
      status = history_truncate_file(path, Self.capacity)
    }
    return status == 0 ? nil : "cannot write history file \(path): \(Self.describe(status))"
  }

  /// The message for an errno value.
  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
  }

  /// `mkdir -p` for the directory holding `path`; returns a message on failure.
  private static func makeParentDirectories(of path: String) -> String? {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    var prefix = ""
    for (index, component) in components.enumerated() {
      prefix += index == 0 ? String(component) : "/" + component
      guard !component.isEmpty else { continue }
      if mkdir(prefix, 0o700) != 0, errno != EEXIST {
        return describe(errno)
      }
    }
    return nil
  }
}
