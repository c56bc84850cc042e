import Foundation
import HealthSim

extension CommandTable {
  static let deviceCommands: [CommandSpec] = [
    CommandSpec(
      name: "simulate", group: .devices,
      usage: [
        "simulate scale every <duration> [at <time>] [start <weight>] [drift <rate>] [noise <weight>] [source <name>] [device <name>] [as <name>] [force]",
        "simulate glucose every <duration> [start <mg/dL>] [noise <mg/dL>] [as <name>]",
        "simulate steps every <duration> [mean <n>] [as <name>]", "simulate list",
        "simulate stop <name>|all",
      ],
      summary: "simulated devices writing to Health on schedule (noise from the seeded generator)",
      example: "simulate scale every 1d at 07:00 start 80kg drift -0.5kg/w noise 0.3kg",
      parse: { cursor throws(Diagnostic) in try SimulateCommand.parse(&cursor) })
  ]
}

/// `simulate …`
struct SimulateCommand: Executable {
  var kind: String
  var interval: TimeSpan = TimeSpan(seconds: 86_400)
  var timeOfDay: (Int, Int)?
  var start: Double?
  /// Where `start`'s weight is written (scale only), for the plausibility check.
  var startSpan: SourceSpan?
  var drift: Double = 0
  var driftSpan: SourceSpan?
  var noise: Double = 0
  var mean: Double = 8000
  var source: String?
  var device: String?
  var name: String?
  var stopName: String?
  var span: SourceSpan
  /// `force`: keep a start weight far outside any body weight as written, as `log … force`.
  var forced = false

  /// A larger drift leaves the range of valid weights within a day.
  static let largestDriftKilogramsPerDay = 1000.0

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> SimulateCommand {
    let first = cursor.peek()
    let kind = try cursor.expect(
      oneOf: ["scale", "glucose", "steps", "list", "stop"], what: "a device or action")
    var command = SimulateCommand(kind: kind, span: cursor.span(first))
    if kind == "list" {
      try cursor.expectEnd(after: "simulate list")
      return command
    }
    if kind == "stop" {
      let token = cursor.peek()
      command.stopName = try cursor.readString(
        "a simulation name (simulate list shows them) or all")
      command.span = cursor.span(token)
      try cursor.expectEnd(after: "the name")
      return command
    }
    try cursor.expect("every", in: "simulate \(kind) every <duration>")
    let intervalToken = cursor.peek()
    command.interval = try cursor.readDuration()
    guard command.interval.seconds >= 60 else {
      throw cursor.error(
        "a simulation writes at most once a minute; use every 1min or more", at: intervalToken)
    }
    let allowed: [String] =
      switch kind {
      case "scale": ["at", "start", "drift", "noise", "source", "device", "as", "force"]
      case "glucose": ["start", "noise", "as"]
      default: ["mean", "as"]
      }
    var seen: Set<String> = []
    while let token = cursor.peek() {
      for option in allowed where !seen.contains(option) {
        CompletionProbe.offer(.keyword(option), if: token)
      }
      guard token.kind == .word, allowed.contains(token.text.lowercased()),
        !seen.contains(token.text.lowercased())
      else {
        throw cursor.error(
          "expected one of \(allowed.joined(separator: ", ")) (each once), \(cursor.got(token))",
          at: token)
      }
      let option = token.text.lowercased()
      seen.insert(option)
      _ = cursor.next()
      switch option {
      case "at":
        let timeToken = cursor.peek()
        let (instant, _) = try cursor.readInstant()
        guard let timeToken, timeToken.text.contains(":"), !timeToken.text.contains("-") else {
          throw cursor.error("expected a time of day such as 07:00", at: timeToken)
        }
        let second = cursor.context.clock.local(instant).secondOfDay
        command.timeOfDay = (second / 3600, second / 60 % 60)
      case "start":
        if kind == "scale" {
          let (kilograms, weightSpan) = try cursor.readWeight("a start weight such as 80kg")
          try WeightRule.validate(kilograms, at: weightSpan, unit: cursor.context.unit)
          command.start = kilograms
          command.startSpan = weightSpan
        } else {
          let startToken = cursor.peek()
          let level = try cursor.readQuantity(
            [.glucose], expected: "a glucose value such as 110mg/dL"
          ).value
          command.start = try Measure.glucose.validate(
            level, at: cursor.span(from: startToken!, to: cursor.tokens[cursor.index - 1]))
        }
      case "drift":
        let driftToken = cursor.peek()
        let perDay =
          try cursor.readRate(.mass, expected: "a rate such as -0.5kg/w").perSecond * 86_400
        guard abs(perDay) <= Self.largestDriftKilogramsPerDay else {
          throw Diagnostic(
            "a drift must be at most 1000 kg a day either way; write a smaller rate such as -0.5kg/w",
            at: cursor.span(from: driftToken!, to: cursor.tokens[cursor.index - 1]))
        }
        command.drift = perDay
        command.driftSpan = cursor.span(from: driftToken!, to: cursor.tokens[cursor.index - 1])
      case "noise":
        let noiseToken = cursor.peek()
        let noise =
          kind == "scale"
          ? try cursor.readWeight("a noise such as 0.3kg").kilograms
          : try cursor.readQuantity([.glucose], expected: "a noise such as 15mg/dL").value
        let measure: Measure = kind == "scale" ? .mass : .glucose
        guard noise >= 0, noise <= measure.limits.upperBound else {
          throw Diagnostic(
            "a noise must be from 0 to \(DisplayUnit.formatNumber(measure.limits.upperBound, decimals: 0)) \(measure.unit)",
            at: cursor.span(from: noiseToken!, to: cursor.tokens[cursor.index - 1]))
        }
        command.noise = noise
      case "mean":
        let meanToken = cursor.peek()
        let text = meanToken?.text.lowercased() ?? ""
        guard let meanToken, meanToken.kind == .word,
          let value = DecimalText.parse(text.hasSuffix("steps") ? text.dropLast(5) : text[...])
        else {
          throw cursor.error(
            "expected a mean step count such as 8000, \(cursor.got(meanToken))", at: meanToken)
        }
        command.mean = try Measure.steps.validate(value, at: cursor.span(meanToken))
        _ = cursor.next()
      case "source": command.source = try cursor.readString("a source name such as Withings")
      case "device": command.device = try cursor.readString("a device name such as \"Body+\"")
      case "force": command.forced = true
      default: command.name = try cursor.readString("a name for the simulation")
      }
    }
    return command
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    switch kind {
    case "list":
      guard !health.simulations.isEmpty else {
        result.say("no simulations")
        return result
      }
      for simulation in health.simulations {
        let definition = simulation.definition
        let next = Instant.seconds(of: simulation.nextReading)
        result.say(
          "\(definition.name)  \(definition.model.sampleType.rawValue)  every \((TimeSpan(checkedSeconds: definition.interval) ?? .maximum).description)  next \(session.zone.minuteText(next))  \(English.counted(simulation.readings, "reading"))  source \(definition.source.name)"
        )
      }
    case "stop":
      if stopName?.lowercased() == "all" {
        let count = health.stopAllSimulations()
        result.say("stopped \(English.counted(count, "simulation"))")
      } else if health.stopSimulation(named: stopName!) {
        result.say("stopped \(stopName!)")
      } else {
        let names = health.simulations.map(\.definition.name)
        throw Diagnostic(
          "no simulation named \(stopName!)"
            + (names.isEmpty ? "; none is running" : "; running: \(names.joined(separator: ", "))"),
          at: span)
      }
    default:
      if kind == "scale", let start, let startSpan {
        // The same rule as `log`: refused far outside any body weight unless forced, a
        // warning outside the usual weights.
        try WeightRule.checkPlausible(
          start, at: startSpan, unit: session.unit, forced: forced || session.options.force)
        if let warning = WeightRule.warning(start, at: startSpan, unit: session.unit) {
          result.warn(warning)
        }
      }
      let (line, chosen) = try startSimulation(health, session)
      result.say(line)
      if let warning = try driftWarning(session, name: chosen) { result.warn(warning) }
    }
    return result
  }

  /// How far ahead a drift out of the plausible weights is warned about: within the first
  /// year of readings, which a session's `advance` easily reaches.
  static let driftHorizonDays = 365.0

  /// A warning when the scale's drift takes its weight (from a plausible start) out of the
  /// plausible weights within `driftHorizonDays`: the readings after that day would be
  /// refused if they were logged by hand.
  private func driftWarning(_ session: Session, name: String) throws(Diagnostic) -> Diagnostic? {
    guard kind == "scale", drift != 0, let driftSpan else { return nil }
    let latest = start == nil ? Session.newest(in: try session.entries())?.kilograms : nil
    let begin = start ?? latest ?? 70
    let plausible = WeightRule.plausible
    guard plausible.contains(begin) else { return nil }
    let edge = drift < 0 ? plausible.lowerBound : plausible.upperBound
    let days = (edge - begin) / drift
    guard days <= Self.driftHorizonDays else { return nil }
    let unit = session.unit
    // checked: days is within 0…365 here
    let whole = Int(days.rounded(.down))
    let side = drift < 0 ? "below" : "above"
    let date = session.zone.local(session.now).date.adding(days: whole)
    return Diagnostic(
      "drift takes the simulated weight from \(unit.format(kilograms: begin)) \(side) \(unit.format(kilograms: edge)) after \(English.counted(whole, "day")) (about \(date)), far \(side) any body weight; check the drift's unit, or stop it by then with simulate stop \(name)",
      at: driftSpan, severity: .warning)
  }

  /// Starts the simulation; returns the line that says so and the simulation's name.
  private func startSimulation(_ health: HealthStore, _ session: Session) throws(Diagnostic)
    -> (line: String, name: String)
  {
    let taken = Set(health.simulations.map(\.definition.name))
    var chosen = name ?? kind
    if name == nil {
      var number = 2
      while taken.contains(chosen) {
        chosen = "\(kind)\(number)"
        number += 1
      }
    } else if taken.contains(chosen) {
      throw Diagnostic(
        "a simulation named \(chosen) is already running; choose another with as <name>", at: span)
    }
    let model: SimulationDefinition.Model
    let sourceName: String
    switch kind {
    case "scale":
      let latest = Session.newest(in: try session.entries())?.kilograms
      model = .scale(
        SimulatedScale(
          startKilograms: start ?? latest ?? 70, driftKilogramsPerDay: drift, noiseKilograms: noise)
      )
      sourceName = source ?? "Smart Scale"
    case "glucose":
      model = .glucose(
        SimulatedGlucoseMonitor(startMilligramsPerDeciliter: start ?? 110, noise: noise))
      sourceName = "CGM"
    default:
      model = .steps(SimulatedStepCounter(meanSteps: mean))
      sourceName = "Phone"
    }
    let definition = SimulationDefinition(
      name: chosen, model: model, interval: TimeInterval(interval.seconds),
      timeOfDay: timeOfDay.map { SimulationDefinition.TimeOfDay(hour: $0.0, minute: $0.1) },
      timeZoneIdentifier: session.zoneName, start: Date(seconds: session.now),
      source: HealthSource(
        name: sourceName, bundleIdentifier: HealthAddCommand.bundle(for: sourceName)),
      device: device.map { HealthDevice(name: $0) })
    do throws(HealthError) { try health.startSimulation(definition) } catch {
      throw Diagnostic("cannot start the simulation: \(Session.describe(error))", at: span)
    }
    let first = Instant.seconds(of: definition.firstReading)
    return (
      "simulating \(kind) \"\(chosen)\" every \(interval.description), first reading \(session.zone.minuteText(first))",
      chosen
    )
  }
}
