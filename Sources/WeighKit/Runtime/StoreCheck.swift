/// `weigh check`: reads a whole store and says what is wrong with it.
public enum StoreCheck {
  /// The report of checking the store at `location`.
  public static func run(_ location: StoreLocation) -> (ok: Bool, text: String) {
    do {
      let store = try Store.open(location)
      defer { store.close() }
      let count = try store.entries().count
      return (true, "ok: \(count) entries\n")
    } catch {
      return (false, "error: \(error)\n")
    }
  }
}
