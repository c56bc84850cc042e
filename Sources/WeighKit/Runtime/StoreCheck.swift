/// `weigh check`: reads a whole store and says what is wrong with it.
public enum StoreCheck {
  /// The report of checking the store at `location`, and whether it is sound.
  public static func run(_ location: StoreLocation) -> (ok: Bool, text: String) {
    let findings = Store.check(
      location, tables: [HealthRecordCodec.self, HealthSyncIndexCodec.self])
    let errors = findings.filter { $0.severity == .error }
    var text = findings.map { "\($0)\n" }.joined()
    if errors.isEmpty { text += "ok: the store reads in full\n" }
    return (errors.isEmpty, text)
  }
}
