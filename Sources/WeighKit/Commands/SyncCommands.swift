import Foundation
import HealthSim

extension CommandTable {
  static let syncCommands: [CommandSpec] = [
    CommandSpec(
      name: "sync", group: .sync,
      usage: ["sync [since anchor]", "sync all", "sync push", "sync status", "sync reset"],
      summary: "anchored import from Health; prints imported N, removed N, skipped N (anchor A)",
      example: "sync since anchor",
      parse: { cursor throws(Diagnostic) in
        var action = SyncCommand.Action.since
        if !cursor.isAtEnd {
          action = try cursor.expect(SyncCommand.Action.self, what: "a sync action")
          if action == .since { try cursor.expect("anchor", in: "sync since anchor") }
        }
        try cursor.expectEnd(after: "sync \(action.rawValue)")
        return SyncCommand(action: action)
      }),
    CommandSpec(
      name: "observe", group: .life,
      usage: ["observe on [immediate|hourly|daily|weekly]", "observe off"],
      summary: "register the observer query and background delivery for body mass",
      example: "observe on hourly",
      parse: { cursor throws(Diagnostic) in
        let state = try cursor.expect(oneOf: ["on", "off"], what: "observe on or off")
        var frequency = UpdateFrequency.immediate
        if state == "on", !cursor.isAtEnd {
          let word = try cursor.expect(
            oneOf: ["immediate", "hourly", "daily", "weekly"], what: "a frequency")
          frequency = UpdateFrequency(word: word)!
        }
        try cursor.expectEnd(after: "observe \(state)")
        return ObserveCommand(frequency: state == "on" ? frequency : nil)
      }),
    CommandSpec(
      name: "app", group: .life, usage: ["app launch|foreground|background|quit|lock|unlock"],
      summary: "app and device life-cycle events (quit = force-quit by the user)",
      example: "app background",
      parse: { cursor throws(Diagnostic) in
        let event = try cursor.expect(AppEventCommand.Event.self, what: "a life-cycle event")
        try cursor.expectEnd(after: "app \(event.rawValue)")
        return AppEventCommand(event: event)
      }),
    CommandSpec(
      name: "fault", group: .life, usage: ["fault completion skip <n>", "fault sync fail <n>"],
      summary: "the observer handler skips its completion, or syncs fail, for the next n times",
      example: "fault completion skip 3",
      parse: { cursor throws(Diagnostic) in
        let what = try cursor.expect(oneOf: ["completion", "sync"], what: "completion or sync")
        try cursor.expect(
          what == "completion" ? "skip" : "fail",
          in: what == "completion" ? "fault completion skip <n>" : "fault sync fail <n>")
        let count = try cursor.readInteger("a count such as 3", range: 0...1_000_000)
        try cursor.expectEnd(after: "the count")
        return FaultCommand(completion: what == "completion", count: count)
      }),
  ]
}

/// `sync …`
struct SyncCommand: Executable {
  /// What `sync` does, by the word that asks for it.
  enum Action: String, CaseIterable {
    case since, all, push, status, reset
  }

  var action: Action

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    switch action {
    case .since, .all:
      result.append(.sync(try session.runSync(fromScratch: action == .all)))
    case .push:
      result.append(.push(try session.push()))
    case .reset:
      var app = session.app
      app.anchor = nil
      try session.saveApp(app)
      result.say("anchor forgotten; the next sync reads everything")
    case .status:
      let app = session.app
      let entries = try session.entries()
      func count(_ origin: Origin) -> Int { entries.lazy.filter { $0.origin == origin }.count }
      let waiting = entries.lazy.filter(\.waitsForPush).count
      let rows: [(String, String)] = [
        ("anchor", app.anchor.map(String.init) ?? "none"),
        ("last sync", app.lastSync.map { session.zone.secondText($0) } ?? "never"),
        ("syncs", String(app.syncCount)),
        (
          "entries",
          "\(entries.count) (manual \(count(.manual)), health \(count(.health)), import \(count(.import)))"
        ),
        (
          "to push",
          English.counted(waiting, "entry", "entries") + ", "
            + English.counted(app.pendingDeletes.count, "deletion")
        ),
        ("dedup", app.dedup.rawValue),
        ("observer", session.observerFact()),
      ]
      for (label, value) in rows {
        result.say(label.padding(toLength: 11, withPad: " ", startingAt: 0) + value)
      }
    }
    return result
  }
}

/// `observe on [frequency]`, `observe off`
struct ObserveCommand: Executable {
  var frequency: UpdateFrequency?

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    var app = session.app
    if let frequency {
      try session.registerObserver(frequency)
      app.observing = frequency.word
      try session.saveApp(app)
      let effective = health.effectiveFrequency(for: .bodyMass) ?? frequency
      result.say("observing body mass, background delivery \(effective.word)")
    } else {
      // Health may refuse (unavailable): the query keeps running then.
      do throws(HealthError) { try health.disableBackgroundDelivery(for: .bodyMass) } catch {
        throw Session.healthFailure(error, doing: "disable background delivery")
      }
      if let query = session.observer.query { health.stop(query) }
      session.observer.query = nil
      app.observing = nil
      try session.saveApp(app)
      result.say("observer stopped, background delivery off")
    }
    return result
  }
}

/// `app launch|foreground|background|quit|lock|unlock`
struct AppEventCommand: Executable {
  /// An app or device life-cycle event, by the word that asks for it.
  enum Event: String, CaseIterable {
    case launch, foreground, background, quit, lock, unlock
  }

  var event: Event

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    // Bringing a force-quit app to the foreground launches it, with everything a launch does.
    let launches = event == .launch || (event == .foreground && !health.device.isAppRunning)
    switch launches ? .launch : event {
    case .launch:
      health.launchApp()
      session.observer.query = nil
      // The app registers its observer again at every launch.
      if let word = session.app.observing, let frequency = UpdateFrequency(word: word) {
        try session.registerObserver(frequency)
      }
      result.say(event == .launch ? "app launched" : "app launched: it was not running")
      if session.app.syncOnLaunch, health.isHealthDataAvailable() {
        do throws(Diagnostic) {
          var report = try session.runSync(fromScratch: false)
          report.trigger = .launch
          result.append(.sync(report))
        } catch {
          result.say("launch sync failed: \(error.message)")
        }
      }
    case .foreground:
      health.foregroundApp()
      result.say("app in the foreground")
    case .background:
      health.backgroundApp()
      result.say("app in the background")
    case .quit:
      health.quitApp()
      session.observer.query = nil
      result.say("app force-quit by the user: nothing is delivered until app launch")
    case .lock:
      health.lockDevice()
      result.say("device locked")
    case .unlock:
      health.unlockDevice()
      result.say("device unlocked")
    }
    return result
  }
}

/// `fault completion skip <n>`, `fault sync fail <n>`
struct FaultCommand: Executable {
  var completion: Bool
  var count: Int

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    if completion {
      session.observer.faults.skipCompletions = count
      result.say(
        "the observer handler will not call its completion for the next \(English.counted(count, "delivery", "deliveries"))"
      )
    } else {
      session.observer.faults.failSyncs = count
      result.say("the next \(English.counted(count, "sync attempt")) will fail")
    }
    return result
  }
}

extension Session {
  /// The `observer` fact: off, active, retrying or stopped.
  func observerFact() -> String {
    guard app.observing != nil, let health = healthLink?.health ?? (try? health()) else {
      return "off"
    }
    return health.observerState(for: .bodyMass).rawValue
  }
}
