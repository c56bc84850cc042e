import Foundation

extension CommandTable {
  static let clockCommands: [CommandSpec] = [
    CommandSpec(
      name: "clock", group: .clock, usage: ["clock <when>"], summary: "set the virtual clock",
      example: "clock 2026-01-03 07:30",
      parse: { cursor throws(Diagnostic) in
        let (instant, _) = try cursor.readInstant()
        try cursor.expectEnd(after: "the instant")
        return ClockCommand(instant: instant)
      }),
    CommandSpec(
      name: "advance", group: .clock, usage: ["advance <duration>"],
      summary: "move the clock forward, running every event that falls due on the way",
      example: "advance 1d",
      parse: { cursor throws(Diagnostic) in
        let first = cursor.peek()
        let duration = try cursor.readDuration()
        let span = cursor.span(from: first!, to: cursor.tokens[cursor.index - 1])
        try cursor.expectEnd(after: "the duration")
        return AdvanceCommand(duration: duration, span: span)
      }),
    CommandSpec(
      name: "now", group: .clock, usage: ["now"], summary: "print the clock", example: "now",
      parse: { cursor throws(Diagnostic) in
        try cursor.expectEnd(after: "now")
        return NowCommand()
      }),
    CommandSpec(
      name: "seed", group: .clock, usage: ["seed <n>"],
      summary: "seed the random generator of simulations and new UUIDs", example: "seed 42",
      parse: { cursor throws(Diagnostic) in
        let token = cursor.peek()
        // checked: parses text, nil when out of range
        guard let token, token.kind == .word, let value = UInt64(token.text) else {
          throw cursor.error("expected a seed such as 42, \(cursor.got(token))", at: token)
        }
        _ = cursor.next()
        try cursor.expectEnd(after: "the seed")
        return SeedCommand(seed: value)
      }),
  ]
}

/// `clock <when>`
struct ClockCommand: Executable {
  var instant: Int64

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    session.virtualNow = instant
    session.healthLink?.health.setClock(Date(seconds: instant))
    return .empty
  }
}

/// `advance <duration>`
struct AdvanceCommand: Executable {
  var duration: TimeSpan
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    guard let target = Instant.adding(duration, to: session.now) else {
      throw Diagnostic(
        "the clock cannot pass 9999-12-31; advance by less than \(duration.description)",
        at: span)
    }
    // Events on the way print their own lines; moving the clock itself is silent.
    session.virtualNow = target
    return .empty
  }
}

/// `now`
struct NowCommand: Executable {
  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    .message("\(session.zone.secondText(session.now)) \(session.zoneName)")
  }
}

/// `seed <n>`
struct SeedCommand: Executable {
  var seed: UInt64

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    session.seed = seed
    session.healthLink?.health.seed(seed)
    return .message("seed \(seed)")
  }
}
