/// `weigh check`: reads a whole store and says what is wrong with it; `weigh check --repair`
/// makes a damaged store readable from what is intact.
public enum StoreCheck {
  /// The tables of the app's store.
  static let tables: [any StoreTableCodec.Type] = [
    HealthRecordCodec.self, HealthSyncIndexCodec.self,
  ]

  /// The report of checking the store at `location`, and whether it is sound.
  public static func run(_ location: StoreLocation) -> (ok: Bool, text: String) {
    let findings = Store.check(location, tables: tables)
    let errors = findings.filter { $0.severity == .error }
    let renderer = DiagnosticRenderer()
    var text = findings.map { renderer.render($0.diagnostic) }.joined()
    if errors.isEmpty { text += "ok: the store reads in full\n" }
    return (errors.isEmpty, text)
  }

  /// Repairs the store at `location`: the report of what was kept and lost, and the exit
  /// status (success when the store reads in full afterwards, `unreadableStore` when it
  /// still cannot be read, `commandFailed` when the repair could not run: the store is busy,
  /// or a file could not be written).
  public static func repair(_ location: StoreLocation) -> (status: ExitStatus, text: String) {
    let report: StoreRepairReport
    do throws(StoreError) {
      report = try Store.repair(location, tables: tables)
    } catch {
      let unreadable = error.kind == .corrupt || error.kind == .newerFormat
      let text = DiagnosticRenderer().render(error.diagnostic()) + "nothing was repaired\n"
      return (unreadable ? .unreadableStore : .commandFailed, text)
    }
    var text = ""
    if report.copies == nil {
      text += report.kept.map { "warning: \($0)\n" }.joined()
      text += "nothing to repair: the store reads in full\n"
      return (.success, text)
    }
    text += report.problems.map { "damaged: \($0)\n" }.joined()
    text += report.kept.map { "kept: \($0)\n" }.joined()
    text += report.lost.map { "lost: \($0)\n" }.joined()
    text += "copies of the files as they were: \(report.copies!)\n"
    let after = run(location)
    if after.ok {
      text += "repaired: the store reads in full\n"
    } else {
      text += after.text + "the store still cannot be read in full; restore it from a backup\n"
    }
    return (after.ok ? .success : .unreadableStore, text)
  }
}
