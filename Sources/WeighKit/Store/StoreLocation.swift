#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a store lives: a directory on disk, or memory only (`--memory`).
public enum StoreLocation: Equatable, Sendable {
  /// A store directory, created on first use.
  case directory(String)
  /// A store that persists nothing.
  case memory

  /// The default store: `$WEIGH_STORE`, else `$XDG_DATA_HOME/weigh`, else
  /// `$HOME/.local/share/weigh`. Empty variables count as unset, as the XDG spec says.
  public static func resolve(environment: [String: String]) -> StoreLocation {
    func value(_ name: String) -> String? {
      guard let text = environment[name], !text.isEmpty else { return nil }
      return text
    }
    if let store = value("WEIGH_STORE") { return .directory(store) }
    if let data = value("XDG_DATA_HOME") { return .directory(joinPath(data, "weigh")) }
    let home = value("HOME") ?? passwordDatabaseHome() ?? "."
    return .directory(joinPath(home, ".local/share/weigh"))
  }

  private static func passwordDatabaseHome() -> String? {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
    return String(cString: directory)
  }

  static func joinPath(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
