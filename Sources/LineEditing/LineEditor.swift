// Stand-in until the readline editor lands.
@preconcurrency import CReadline
import Glibc

public enum LineInputKind: Equatable { case line(String), interrupted, end }

public final class LineEditor {
  public init(programName: String, historyPath: String?, completer: @escaping (String, String) -> [String]) {}
  public func read(prompt: String) -> LineInputKind {
    guard let raw = readline(prompt) else { return .end }
    defer { free(raw) }
    return .line(String(cString: raw))
  }
  public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }
  public static func terminalColumns() -> Int? { nil }
}
