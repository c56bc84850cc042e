import Foundation

/// `weigh check`: reads a whole store and says what is wrong with it; `weigh check --repair`
/// makes a damaged store readable from what is intact.
public enum StoreCheck {
  /// The tables of the app's store.
  static let tables: [any StoreTableCodec.Type] = [
    HealthRecordCodec.self, HealthSyncIndexCodec.self,
  ]

  /// `health.sqlite` of a directory store, when there is one.
  static func healthPath(_ location: StoreLocation) -> String? {
    guard case .directory(let directory) = location else { return nil }
    let path = StoreLocation.joinPath(directory, HealthSQLiteStorage.fileName)
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// The report of checking the store at `location`, and whether it is sound.
  public static func run(_ location: StoreLocation) -> (ok: Bool, text: String) {
    var findings = Store.check(location, tables: tables)
    if let path = healthPath(location) {
      findings += HealthSQLiteStorage.check(
        path: path, journalSequence: Store.committedSequence(location, tables: tables))
    }
    let errors = findings.filter { $0.severity == .error }
    let renderer = DiagnosticRenderer()
    var text = findings.map { renderer.render($0.diagnostic) }.joined()
    if errors.isEmpty { text += "ok: the store reads in full\n" }
    return (errors.isEmpty, text)
  }

  /// Appends the record of a command that `health.sqlite` at `healthPath` committed and the
  /// store's journal lacks, as the next writable open would; whether there was one.
  static func finishPendingCommit(_ location: StoreLocation, healthPath: String) throws(StoreError)
    -> Bool
  {
    guard FileManager.default.fileExists(atPath: healthPath) else { return false }
    var store = try Store.open(location, tables: tables)
    defer { store.close() }
    let sqlite = try HealthSQLiteStorage(path: healthPath, creating: false)
    sqlite.keepsLogOnClose = true
    defer { try? sqlite.close() }
    let finished = try Session.finishPendingCommit(
      sqlite, store: &store, location: location, lockTimeout: 5)
    sqlite.keepsLogOnClose = false
    return finished
  }

  /// "positions 12 to 40", "position 12", "positions 12 on" (`noun` for "position").
  static func positions(_ span: HealthSQLiteStorage.UnreadablePositions, _ noun: String)
    -> String
  {
    guard let last = span.last else { return "\(noun)s from \(span.first) on" }
    return last == span.first ? "\(noun) \(last)" : "\(noun)s \(span.first) to \(last)"
  }

  /// The Health records of `span`: "up to 143 Health records of health.sqlite, at positions
  /// 139 to 281" (as many as its positions: fewer when a repair before left some out).
  static func unreadable(_ span: HealthSQLiteStorage.UnreadablePositions) -> String {
    let file = HealthSQLiteStorage.fileName
    guard let count = span.count else {
      return "the Health records of \(file) at \(positions(span, "position"))"
    }
    return
      "up to \(English.counted(Int(clamping: count), "Health record")) of \(file), at "
      + positions(span, "position")
  }

  /// The records kept without their origin `origin`: "3 Health records of health.sqlite
  /// that name origin 7 (positions 12 to 240, the first and the last): their source and
  /// device are unknown now, none is kept (HealthKit shows the Health app as their source)".
  static func unknownOrigin(_ origin: HealthSQLiteStorage.UnknownOrigin) -> String {
    let places =
      origin.count == 1
      ? "position \(origin.first)"
      : "positions \(origin.first) to \(origin.last), the first and the last"
    return
      "\(English.counted(origin.count, "Health record")) of \(HealthSQLiteStorage.fileName) "
      + "that name origin \(origin.id) (\(places)): their source and device are unknown now, "
      + "none is kept (HealthKit shows the Health app as their source)"
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
    // Health's database, repaired on its own (the store's lock is free again here).
    var health: HealthSQLiteStorage.RepairReport?
    if let path = healthPath(location), case .directory(let directory) = location {
      do throws(StoreError) {
        health = try HealthSQLiteStorage.repair(path: path, directory: directory)
      } catch {
        let unreadable = error.kind == .corrupt || error.kind == .newerFormat
        let text =
          DiagnosticRenderer().render(error.diagnostic()) + "health.sqlite was not repaired\n"
        return (unreadable ? .unreadableStore : .commandFailed, text)
      }
    }
    // A command that health.sqlite committed and the journal lacks: finished as an open does.
    var finished = false
    if let path = healthPath(location) {
      do throws(StoreError) {
        finished = try finishPendingCommit(location, healthPath: path)
      } catch {
        let unreadable = error.kind == .corrupt || error.kind == .newerFormat
        let text =
          DiagnosticRenderer().render(error.diagnostic())
          + "the last command's record was not added to the journal\n"
        return (unreadable ? .unreadableStore : .commandFailed, text)
      }
    }
    var text =
      finished
      ? "completed: the last command's record, which health.sqlite held, added to "
        + "\(StoreJournal.fileName)\n" : ""
    if report.copies == nil, health == nil, !finished {
      text += report.kept.map { "warning: \($0)\n" }.joined()
      text += "nothing to repair: the store reads in full\n"
      return (.success, text)
    }
    if report.copies != nil {
      text += report.problems.map { "damaged: \($0)\n" }.joined()
      text += report.kept.map { "kept: \($0)\n" }.joined()
      text += report.lost.map { "lost: \($0)\n" }.joined()
      text += "copies of the files as they were: \(report.copies!)\n"
    }
    if let health {
      text += health.problems.map { "damaged: \(HealthSQLiteStorage.fileName): \($0)\n" }.joined()
      func records(_ count: Int) -> String {
        English.counted(count, "Health record")
      }
      text += "kept: \(records(health.kept)) in \(HealthSQLiteStorage.fileName)\n"
      if health.lost > 0 {
        text += "lost: \(records(health.lost)) of \(HealthSQLiteStorage.fileName) (damaged)\n"
      }
      for span in health.unreadable {
        text += "lost: \(unreadable(span)), on a page SQLite cannot read\n"
      }
      for span in health.unreadableOrigins {
        text +=
          "lost: the origins of \(HealthSQLiteStorage.fileName) with \(positions(span, "id")), "
          + "on a page SQLite cannot read (the records that name them are kept without one)\n"
      }
      for origin in health.unknownOrigins {
        text += "kept: \(unknownOrigin(origin))\n"
      }
      text += "copy of \(HealthSQLiteStorage.fileName) as it was: \(health.copies)\n"
    }
    let after = run(location)
    if after.ok {
      text += "repaired: the store reads in full\n"
    } else {
      text += after.text + "the store still cannot be read in full; restore it from a backup\n"
    }
    return (after.ok ? .success : .unreadableStore, text)
  }
}
