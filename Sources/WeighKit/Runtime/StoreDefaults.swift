/// Where the store lives when no `--store` is given.
public enum StoreDefaults {
  /// `$WEIGH_STORE`, else `$XDG_DATA_HOME/weigh`, else `~/.local/share/weigh`.
  public static func directory(environment: [String: String]) -> String {
    if let explicit = environment["WEIGH_STORE"], !explicit.isEmpty { return explicit }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/weigh" }
    return (environment["HOME"] ?? "~") + "/.local/share/weigh"
  }
}
