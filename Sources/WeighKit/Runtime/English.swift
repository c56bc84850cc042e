/// English plurals: the one place a count is put to its noun.
public enum English {
  /// `1 entry`, `3 entries`, `0 entries`; the plural is the singular with `s` unless given.
  public static func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(noun(count, singular, plural))"
  }

  /// The singular for a count of 1, else the plural (the singular with `s` unless given).
  public static func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    count == 1 ? singular : plural ?? singular + "s"
  }
}
