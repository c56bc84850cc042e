import Foundation
import HealthSim

/// The Health link: loading the simulated Health store from the store, letting its events
/// fall due after each command, and describing its errors.
extension Session {
  /// The simulated Health store over Health's storage, opened the first time a command
  /// needs it: it reads nothing up front and asks the storage for what each query needs.
  func health() throws(Diagnostic) -> HealthStore {
    if let healthLink { return healthLink.health }
    let committed = persistence.unwrittenState ?? persistence.memoryState
    let base: any HealthSampleStorage
    do throws(StoreError) {
      base = try openedHealthStorage() ?? InMemorySampleStorage()
    } catch {
      throw Self.diagnostic(for: error)
    }
    let storage = CommandHealthStorage(
      base: base, committedState: committed,
      openWrites: { [unowned self] in try openHealthWrites() })
    // What each commit keeps is what undoing a later failed step writes again, in memory
    // and in `health.sqlite` (`openHealthWrites()`).
    storage.keepsWrites = true
    // `health.sqlite` keeps a savepoint over at most `HealthRedo.limit` changes: writes past
    // it are not kept (an import's million samples would be held in memory to no purpose).
    if options.store != .memory { storage.keptChangesLimit = HealthRedo.limit }
    let link: HealthLink
    let existed: Bool
    do throws(StoreError) {
      existed = try Self.storageCall { try storage.smallState() } != nil
      link = try HealthLink(storage: storage, seed: seed, clock: Date(seconds: now))
    } catch {
      throw Self.diagnostic(for: error)
    }
    healthLink = link
    let health = link.health
    // The app registers its observer whenever it starts: before catching up, so that the
    // deliveries that fall due meanwhile reach it, as background launches would have.
    func registerAppObserver() {
      if let word = app.observing, let frequency = UpdateFrequency(word: word) {
        try? registerObserver(frequency)
      }
    }
    if virtualNow == nil, existed, !health.simulations.isEmpty {
      registerAppObserver()
      // A session reopened on the wall clock first catches up on what fell due meanwhile.
      let report = health.catchUp(until: Date(seconds: now), limit: Self.catchUpLimit)
      printEvents(report.events)
      if report.due > 0 {
        let skipped =
          report.skipped > 0 ? " (\(English.counted(report.skipped, "older one")) skipped)" : ""
        let readings = English.counted(report.written, "reading")
        emitLine("caught up: \(readings) from simulations while weigh was closed\(skipped)")
      }
    } else {
      if health.now < Date(seconds: now) { health.setClock(Date(seconds: now)) }
      registerAppObserver()
    }
    return health
  }

  /// How many readings a reopened session writes at most when it catches up.
  static let catchUpLimit = 1000

  /// Runs the Health events that fell due up to now, adds them to the running result, and
  /// commits what Health changed. Called after every command, within its transaction.
  ///
  /// - Returns: the problems met, in order, to be reported after the command's result: a
  ///   warning, or (`fails`) a failure.
  func settleHealth() -> [(problem: Diagnostic, fails: Bool)] {
    guard let healthLink else { return [] }
    let events = healthLink.health.advance(to: Date(seconds: now))
    printEvents(events)
    var problems: [(problem: Diagnostic, fails: Bool)] = []
    if healthLink.hasPending {
      do throws(Diagnostic) { try commit([], undo: nil) } catch { problems.append((error, true)) }
    }
    return problems
  }

  /// Adds Health's `events` to the running command's result, each delivery with the note
  /// its observer handler left.
  func printEvents(_ events: [HealthEvent]) {
    guard !events.isEmpty else { return }
    // The notes are taken in order and dropped once at the end: one `removeFirst()` per
    // delivery moved every later note, quadratic in the deliveries of one `advance`.
    let notes = observer.handlerNotes
    var taken = 0
    let rows = events.map { event in
      var note: String?
      if case .delivered = event.kind, taken < notes.count {
        note = notes[taken]
        taken += 1
      }
      return HealthEventList.Row(event: event, handlerNote: note)
    }
    observer.handlerNotes.removeFirst(taken)
    emit(.healthEvents(HealthEventList(rows: rows)))
  }

  /// `70.2 kg Withings`, `105 mg/dL CGM`, `8000 steps Phone`.
  func describe(_ sample: HealthSample) -> String { SampleText(unit: unit).describe(sample) }

  /// A sample's value: `70.2 kg`, `105 mg/dL`.
  func describeValue(_ sample: HealthSample) -> String { SampleText(unit: unit).value(of: sample) }

  /// A Health error as the app sees it: `authorization denied (code 4)`.
  static func describe(_ error: HealthError) -> String {
    "\(error.message) (code \(error.code.rawValue), \(error.code))"
  }

  /// A Health error as a command's failure.
  static func healthFailure(_ error: HealthError, doing what: String) -> Diagnostic {
    Diagnostic("Health refused to \(what): \(describe(error))")
  }

}
