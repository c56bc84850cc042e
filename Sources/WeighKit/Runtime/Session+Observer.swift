import HealthSim

extension Session {
  /// Runs the observer query for body mass and enables background delivery.
  func registerObserver(_ frequency: UpdateFrequency) throws(Diagnostic) {
    let health = try health()
    let query = ObserverQuery(sampleType: .bodyMass) { [unowned self] _, completion, error in
      var note: String
      if let error {
        note = "observer error: \(Self.describe(error))"
      } else if !self.app.syncOnLaunch {
        note = "sync is off"
      } else {
        do throws(Diagnostic) {
          note = "sync " + (try self.runSync(fromScratch: false)).summary
        } catch {
          note = "sync failed: \(error.message)"
        }
      }
      self.observer.handlerNotes.append(note)
      if self.observer.faults.skipCompletions > 0 {
        self.observer.faults.skipCompletions -= 1
        return
      }
      completion()
    }
    // Background delivery first: when Health refuses it, nothing has changed yet, and the
    // query that was running keeps running.
    do throws(HealthError) {
      try health.enableBackgroundDelivery(for: .bodyMass, frequency: frequency)
      try health.execute(query)
    } catch {
      health.stop(query)
      throw Self.healthFailure(error, doing: "register the observer")
    }
    if let running = observer.query { health.stop(running) }
    observer.query = query
  }
}
