import HealthSim

/// The value of a fact, as `expect` compares it.
enum FactValue {
  case number(Double)
  /// Kilograms.
  case weight(Double)
  case text(String)
}

/// A fact `expect` can read (`help expect` lists them).
struct Fact: Sendable {
  var name: String
  var read: @Sendable (Session) throws(Diagnostic) -> FactValue

  static let available: [Fact] = [
    Fact(name: "entries") { session throws(Diagnostic) in
      .number(Double(try session.entries().count))
    },
    Fact(name: "entries.manual") { session throws(Diagnostic) in try count(.manual, session) },
    Fact(name: "entries.health") { session throws(Diagnostic) in try count(.health, session) },
    Fact(name: "entries.import") { session throws(Diagnostic) in try count(.import, session) },
    Fact(name: "latest") { session throws(Diagnostic) in
      .weight(try newest(session).kilograms)
    },
    Fact(name: "latest.source") { session throws(Diagnostic) in
      .text(try newest(session).source)
    },
    Fact(name: "output") { session in .text(session.memory.output) },
    Fact(name: "health.samples") { session throws(Diagnostic) in
      .number(Double(try session.health().liveSampleCount(of: .bodyMass)))
    },
    Fact(name: "health.samples.glucose") { session throws(Diagnostic) in
      .number(Double(try session.health().liveSampleCount(of: .bloodGlucose)))
    },
    Fact(name: "health.samples.steps") { session throws(Diagnostic) in
      .number(Double(try session.health().liveSampleCount(of: .stepCount)))
    },
    Fact(name: "health.deleted") { session throws(Diagnostic) in
      .number(Double(try session.health().deletedObjectCount()))
    },
    Fact(name: "anchor") { session in .number(Double(session.app.anchor ?? 0)) },
    Fact(name: "deliveries") { session throws(Diagnostic) in
      .number(Double(try session.health().deliveries(for: .bodyMass)))
    },
    Fact(name: "observer") { session in .text(session.observerFact()) },
    Fact(name: "trend") { session throws(Diagnostic) in
      guard let trend = try session.trend().current else {
        throw Diagnostic("there are no entries, so trend has no value")
      }
      return .weight(trend)
    },
    Fact(name: "rate") { session throws(Diagnostic) in
      guard let rate = try session.trend().weeklyRate else {
        throw Diagnostic("rate needs weights on two days at least")
      }
      return .weight(rate)
    },
    Fact(name: "bmi") { session throws(Diagnostic) in
      guard let height = session.settings.height else {
        throw Diagnostic("no height set, so bmi has no value; set height 165cm")
      }
      guard let kilograms = try session.trend().current else {
        throw Diagnostic("there are no entries, so bmi has no value")
      }
      return .number(BodyMassIndex(kilograms: kilograms, heightMeters: height).value)
    },
    Fact(name: "range.low") { session throws(Diagnostic) in
      guard let report = session.memory.range else {
        throw Diagnostic("run range week <n> first")
      }
      return .weight(report.range.low)
    },
    Fact(name: "range.high") { session throws(Diagnostic) in
      guard let report = session.memory.range else {
        throw Diagnostic("run range week <n> first")
      }
      return .weight(report.range.high)
    },
    Fact(name: "glucose.mean") { session throws(Diagnostic) in
      .number(try glucose(session, "glucose.mean").mean!)
    },
    Fact(name: "glucose.cv") { session throws(Diagnostic) in
      guard let cv = try glucose(session, "glucose.cv").coefficientOfVariation else {
        throw Diagnostic("glucose.cv needs two glucose readings at least")
      }
      return .number(cv)
    },
    Fact(name: "glucose.tir") { session throws(Diagnostic) in
      .number(try glucose(session, "glucose.tir").timeInRange)
    },
    Fact(name: "glucose.below") { session throws(Diagnostic) in
      .number(try glucose(session, "glucose.below").timeBelowRange)
    },
    Fact(name: "glucose.above") { session throws(Diagnostic) in
      .number(try glucose(session, "glucose.above").timeAboveRange)
    },
    Fact(name: "workouts") { session throws(Diagnostic) in
      .number(Double(try session.health().liveSampleCount(of: .workout)))
    },
    Fact(name: "workout.type") { session throws(Diagnostic) in
      .text(try newestWorkout(session, "workout.type").activityType.rawValue)
    },
    Fact(name: "workout.duration") { session throws(Diagnostic) in
      .number(try newestWorkout(session, "workout.duration").duration)
    },
    Fact(name: "error") { session in .text(session.memory.error) },
  ]

  static let names = available.map(\.name)

  private static func count(_ origin: Origin, _ session: Session) throws(Diagnostic) -> FactValue {
    .number(Double(try session.entries().lazy.filter { $0.origin == origin }.count))
  }

  private static func glucose(_ session: Session, _ name: String) throws(Diagnostic)
    -> GlucoseSummary
  {
    let summary = try session.glucoseFactSummary()
    guard summary.count > 0 else {
      throw Diagnostic("there are no glucose readings, so \(name) has no value")
    }
    return summary
  }

  private static func newestWorkout(_ session: Session, _ name: String) throws(Diagnostic)
    -> WorkoutDetails
  {
    guard let workout = try session.newestWorkout()?.workout else {
      throw Diagnostic("there are no workouts in Health, so \(name) has no value")
    }
    return workout
  }

  private static func newest(_ session: Session) throws(Diagnostic) -> Entry {
    guard let entry = Session.newest(in: try session.entries()) else {
      throw Diagnostic("there are no entries, so latest has no value")
    }
    return entry
  }
}

/// `expect <fact> <op> <value> [± <tolerance>]`
struct ExpectCommand: Executable {
  enum Operator: String {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<="
    case greater = ">", greaterOrEqual = ">=", contains
  }

  enum Expected {
    case number(Double)
    case quantity(Quantity)
    case text(String)
  }

  var fact: Fact
  var factSpan: SourceSpan
  var op: Operator
  var expected: Expected
  var tolerance: Expected?
  /// The value and tolerance as written, for the failure message.
  var written: String

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> ExpectCommand {
    let factToken = cursor.peek()
    for name in Fact.names { CompletionProbe.offer(.keyword(name), if: factToken) }
    guard let factToken, factToken.kind == .word else {
      throw cursor.error(
        "expected a fact such as entries or latest, \(cursor.got(factToken))", at: factToken)
    }
    let name = factToken.text.lowercased()
    guard let fact = Fact.available.first(where: { $0.name == name }) else {
      var message = "unknown fact \"\(factToken.text)\""
      if let guess = Suggestion.closest(to: name, among: Fact.names) {
        message += "; did you mean \"\(guess)\"?"
      } else {
        message += "; facts are \(Fact.names.joined(separator: ", "))"
      }
      throw cursor.error(message, at: factToken)
    }
    _ = cursor.next()
    let opToken = cursor.peek()
    for op in ["==", "!=", "<", "<=", ">", ">="] {
      CompletionProbe.offer(.keyword(op), if: opToken)
    }
    let op: Operator
    if let opToken, opToken.kind == .comparison, let parsed = Operator(rawValue: opToken.text) {
      op = parsed
    } else if let opToken, opToken.isWord("contains") {
      op = .contains
    } else {
      throw cursor.error(
        "expected a comparison: ==, !=, <, <=, >, >= or contains, \(cursor.got(opToken))",
        at: opToken)
    }
    _ = cursor.next()
    guard let valueStart = cursor.peek() else {
      throw cursor.error("expected a value to compare \(name) with", at: nil)
    }
    let expected = try readValue(&cursor)
    var tolerance: Expected?
    if let token = cursor.peek(), token.kind == .comparison, token.text == "±" {
      _ = cursor.next()
      tolerance = try readValue(&cursor)
    }
    if let extra = cursor.peek() {
      throw cursor.error(
        "unexpected \"\(extra.text)\" after the value; put a value with spaces in quotes", at: extra
      )
    }
    let utf8 = Array(cursor.context.text.utf8)
    let written = String(decoding: utf8[valueStart.start..<cursor.tokens.last!.end], as: UTF8.self)
    return ExpectCommand(
      fact: fact, factSpan: cursor.span(factToken), op: op, expected: expected,
      tolerance: tolerance, written: written)
  }

  private static func readValue(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> Expected {
    guard let token = cursor.peek() else {
      throw cursor.error("expected a value after ±, such as 0.1kg", at: nil)
    }
    if token.kind == .string {
      _ = cursor.next()
      return .text(token.text)
    }
    guard token.kind == .word else {
      throw cursor.error(
        "expected a value such as 3, 68.5kg or \"text\", \(cursor.got(token))", at: token)
    }
    if let number = NumberPrefix(token.text), number.unit.contains("/"),
      !number.unit.lowercased().hasPrefix("mg"), !number.unit.lowercased().hasPrefix("mmol")
    {
      let rate = try cursor.readRate(.mass, expected: "a rate such as -0.5kg/w")
      return .quantity(Quantity(value: rate.perSecond * 604_800, kind: .mass, unit: "kg"))
    }
    if let number = NumberPrefix(token.text) {
      let nextIsUnit =
        cursor.peek(1).map {
          $0.kind == .word && UnitDefinition.table[$0.text.lowercased()] != nil
        } ?? false
      if number.unit.isEmpty && !nextIsUnit {
        _ = cursor.next()
        return .number(number.value)
      }
      return .quantity(
        try cursor.readQuantity(
          [.mass, .length, .glucose, .count, .energy, .time], expected: "a value such as 68.5kg"))
    }
    _ = cursor.next()
    return .text(token.text)
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let actual = try fact.read(session).located(at: factSpan)
    let passed: Bool
    let shown: String
    switch actual {
    case .text(let text):
      guard case .text(let value) = expected, tolerance == nil else {
        throw Diagnostic("\(fact.name) is text; compare it with a quoted string", at: factSpan)
      }
      switch op {
      case .equal: passed = text == value
      case .notEqual: passed = text != value
      case .contains: passed = text.contains(value)
      default:
        throw Diagnostic("\(fact.name) is text; use ==, != or contains", at: factSpan)
      }
      shown = quoted(text)
    case .number(let number):
      let value = try plainNumber(expected)
      var slack = 0.0
      if let tolerance { slack = try plainNumber(tolerance) }
      passed = try compare(number, value, slack)
      shown = DisplayUnit.formatNumber(number, decimals: number == number.rounded() ? 0 : 3)
    case .weight(let kilograms):
      let (value, unit) = try weight(expected)
      var slack = 0.0
      if let tolerance { slack = try weight(tolerance).kilograms }
      passed = try compare(kilograms, value, slack)
      let shownUnit = unit ?? .kg
      shown = "\(Self.trim(shownUnit.fromKilograms(kilograms))) \(shownUnit.rawValue)"
    }
    guard passed else {
      throw Diagnostic(
        "expect failed: \(fact.name) is \(shown), expected \(op.rawValue) \(written)", at: factSpan)
    }
    return .empty
  }

  private func compare(_ actual: Double, _ value: Double, _ slack: Double) throws(Diagnostic)
    -> Bool
  {
    // A hair of slack so that a value written in lb equals the same weight stored in kg.
    let epsilon = max(abs(slack), 1e-9 * max(1, abs(value)))
    switch op {
    case .equal: return abs(actual - value) <= epsilon
    case .notEqual: return abs(actual - value) > epsilon
    case .less: return actual < value
    case .lessOrEqual: return actual <= value + epsilon
    case .greater: return actual > value
    case .greaterOrEqual: return actual >= value - epsilon
    case .contains:
      throw Diagnostic("contains compares text; \(fact.name) is a number", at: factSpan)
    }
  }

  private func plainNumber(_ value: Expected) throws(Diagnostic) -> Double {
    switch value {
    case .number(let number): return number
    case .quantity(let quantity):
      throw Diagnostic(
        "\(fact.name) is a plain number; write the value without the unit \"\(quantity.unit)\"",
        at: factSpan)
    case .text(let text):
      throw Diagnostic("\(fact.name) is a number; \"\(text)\" is not", at: factSpan)
    }
  }

  private func weight(_ value: Expected) throws(Diagnostic) -> (kilograms: Double, unit: MassUnit?)
  {
    switch value {
    case .number(let number): return (number, nil)
    case .quantity(let quantity) where quantity.kind == .mass:
      let unit = MassUnit(rawValue: quantity.unit == "lbs" ? "lb" : String(quantity.unit.prefix(2)))
      return (quantity.value, unit)
    case .quantity(let quantity):
      throw Diagnostic(
        "\(fact.name) is a weight; \(quantity.unit) is not a unit of weight", at: factSpan)
    case .text(let text):
      throw Diagnostic("\(fact.name) is a weight; \"\(text)\" is not", at: factSpan)
    }
  }

  /// Up to three decimals, without trailing zeros.
  static func trim(_ value: Double) -> String {
    var text = DisplayUnit.formatNumber(value, decimals: 3)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}

extension FactValue {
  func located(at span: SourceSpan) -> FactValue { self }
}
