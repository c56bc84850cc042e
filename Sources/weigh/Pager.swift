import Foundation

/// Long help through `$PAGER` (default `less -FRX`), only when stdout is a terminal.
enum Pager {
  /// Shows `text` in the pager; false when stdout is no terminal, `PAGER` is empty, or the
  /// pager cannot be started (the caller prints the text then).
  static func show(_ text: String) -> Bool {
    guard isatty(STDOUT_FILENO) == 1 else { return false }
    let command = ProcessInfo.processInfo.environment["PAGER"] ?? "less -FRX"
    guard !command.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let input = Pipe()
    process.standardInput = input
    do { try process.run() } catch { return false }
    // A pager that quits early closes the pipe; the write then fails quietly.
    let previous = signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    signal(SIGPIPE, previous)
    return true
  }
}
