import Foundation
import HealthSim

extension CommandTable {
  static let settingsCommands: [CommandSpec] = [
    CommandSpec(
      name: "set", group: .settings,
      usage: [
        "set unit kg|lb|st", "set tz <IANA name>", "set daily first|morning|latest|average",
        "set height <length>|none", "set pre-pregnancy <weight>|none", "set goal <weight>|none",
        "set pregnancy-start <date>|none",
        "set dedup uuid|fuzzy", "set autopush on|off", "set sync on|off",
        "set entitlement on|off", "set spurious on|off", "set backoff <duration>",
        "set platform ios|watchos", "set format text|json|csv",
      ],
      summary: "change a setting or the profile (kept in the store; format only for the run)",
      example: "set unit lb",
      parse: { cursor throws(Diagnostic) in try SetCommand.parse(&cursor) }),
    CommandSpec(
      name: "settings", group: .settings, usage: ["settings"],
      summary: "print every setting", example: "settings",
      parse: { cursor throws(Diagnostic) in
        try cursor.expectEnd(after: "settings")
        return ShowSettings()
      }),
  ]
}

/// `set <name> <value>`
struct SetCommand: Executable {
  enum Change {
    case unit(DisplayUnit)
    case timeZone(String)
    case daily(DailyPolicy)
    case height(Double?)
    case prePregnancy(Double?)
    case pregnancyStart(CivilDate?)
    case goal(Double?)
    case dedup(DedupMode)
    case flag(Flag, Bool)
    case backoff(TimeSpan)
    /// Health's platform: watchOS caps deliveries at hourly and budgets wakes per day.
    case platform(Platform)
    /// How results are shown for the rest of the session (not kept in the store).
    case format(OutputFormat)
  }

  /// What `set` changes, by the word that names it.
  enum Setting: String, CaseIterable {
    case unit, tz, daily, height
    case prePregnancy = "pre-pregnancy"
    case goal
    case pregnancyStart = "pregnancy-start"
    case dedup, autopush, sync, platform, entitlement, spurious, backoff, format
  }

  /// The settings that are on or off: autopush, sync (the app's switches); entitlement,
  /// spurious (Health's knobs).
  enum Flag: String, CaseIterable {
    case autopush, sync, entitlement, spurious
  }

  /// The platforms of `set platform`.
  enum Platform: String, CaseIterable {
    case ios, watchos
  }

  static let names = Setting.allCases.map(\.rawValue)

  var change: Change

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> SetCommand {
    let setting = try cursor.expect(Setting.self, what: "a setting")
    let change: Change
    switch setting {
    case .unit:
      let unit = try cursor.expect(oneOf: DisplayUnit.allCases.map(\.rawValue), what: "a unit")
      change = .unit(DisplayUnit(rawValue: unit)!)
    case .tz:
      let token = cursor.peek()
      CompletionProbe.offer(.timeZone, if: token)
      let identifier = try cursor.readString("a time zone such as Europe/Berlin or UTC")
      guard TimeZone(identifier: identifier) != nil else {
        throw cursor.error(
          "unknown time zone \"\(identifier)\"; use an IANA name such as Europe/Berlin, America/New_York or UTC",
          at: token)
      }
      change = .timeZone(identifier)
    case .daily:
      let policy = try cursor.expect(
        oneOf: DailyPolicy.allCases.map(\.rawValue), what: "a daily policy")
      change = .daily(DailyPolicy(rawValue: policy)!)
    case .height:
      if cursor.take("none") {
        change = .height(nil)
      } else {
        let token = cursor.peek()
        let metres = try cursor.readLength()
        guard (0.5...2.75).contains(metres) else {
          throw cursor.error("a height must be between 50cm and 275cm", at: token)
        }
        change = .height(metres)
      }
    case .dedup:
      change = .dedup(try cursor.expect(DedupMode.self, what: "uuid or fuzzy"))
    case .autopush: change = .flag(.autopush, try readSwitch(&cursor))
    case .sync: change = .flag(.sync, try readSwitch(&cursor))
    case .entitlement: change = .flag(.entitlement, try readSwitch(&cursor))
    case .spurious: change = .flag(.spurious, try readSwitch(&cursor))
    case .platform:
      change = .platform(try cursor.expect(Platform.self, what: "a platform"))
    case .backoff:
      let token = cursor.peek()
      let span = try cursor.readDuration("a first retry delay such as 1min")
      guard span.seconds > 0 else {
        throw cursor.error("the backoff must be longer than 0s", at: token)
      }
      change = .backoff(span)
    case .format:
      change = .format(try cursor.expect(OutputFormat.self, what: "an output format"))
    case .prePregnancy:
      change = .prePregnancy(try readProfileWeight(&cursor))
    case .pregnancyStart:
      change = .pregnancyStart(cursor.take("none") ? nil : try cursor.readDate())
    case .goal:
      change = .goal(try readProfileWeight(&cursor))
    }
    try cursor.expectEnd(after: "set \(setting.rawValue)")
    return SetCommand(change: change)
  }

  private static func readSwitch(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> Bool {
    try cursor.expect(oneOf: ["on", "off"], what: "on or off") == "on"
  }

  private static func readProfileWeight(_ cursor: inout ArgumentCursor) throws(Diagnostic)
    -> Double?
  {
    if cursor.take("none") { return nil }
    let (kilograms, span) = try cursor.readWeight()
    try WeightRule.validate(kilograms, at: span, unit: cursor.context.unit)
    return kilograms
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    var settings = session.settings
    let shown: String
    switch change {
    case .dedup(let mode):
      var app = session.app
      app.dedup = mode
      try session.saveApp(app)
      result.say("dedup: \(mode.rawValue)")
      return result
    case .flag(let flag, let on):
      switch flag {
      case .autopush, .sync:
        var app = session.app
        if flag == .autopush { app.autopush = on } else { app.syncOnLaunch = on }
        try session.saveApp(app)
      case .entitlement:
        try session.health().settings.hasBackgroundDeliveryEntitlement = on
      case .spurious:
        try session.health().settings.spuriousForegroundFire = on
      }
      result.say("\(flag.rawValue): \(on ? "on" : "off")")
      return result
    case .platform(let platform):
      try session.health().settings.platform = platform == .watchos ? .watchOS : .iOS
      result.say("platform: \(platform.rawValue)")
      return result
    case .backoff(let span):
      try session.health().settings.retryBackoff = TimeInterval(span.seconds)
      result.say("backoff: \(span.description)")
      return result
    case .format(let format):
      session.format = format
      result.say("format: \(format.rawValue)")
      return result
    case .unit(let unit):
      settings.unit = unit
      shown = "unit: \(unit.rawValue)"
    case .timeZone(let identifier):
      settings.timeZone = identifier
      shown = "tz: \(identifier)"
    case .daily(let policy):
      settings.daily = policy
      shown = "daily: \(policy.rawValue)"
    case .height(let metres):
      settings.height = metres
      shown = "height: \(metres.map(Self.formatHeight) ?? "none")"
    case .prePregnancy(let kilograms):
      settings.prePregnancy = kilograms
      shown = "pre-pregnancy: \(kilograms.map(session.unit.format) ?? "none")"
    case .pregnancyStart(let date):
      settings.pregnancyStart = date
      shown = "pregnancy-start: \(date?.description ?? "none")"
    case .goal(let kilograms):
      settings.goal = kilograms
      shown = "goal: \(kilograms.map(session.unit.format) ?? "none")"
    }
    try session.commit([.set(.settings, to: settings.json)], undo: nil)
    if case .unit = change { session.unitOverride = nil }
    if case .timeZone(let identifier) = change { session.useTimeZone(identifier) }
    result.say(shown)
    return result
  }

  static func formatHeight(_ metres: Double) -> String {
    "\(DisplayUnit.formatNumber(metres * 100, decimals: 1)) cm"
  }
}

/// `settings`
struct ShowSettings: Executable {
  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let settings = session.settings
    let rows: [(String, String)] = [
      ("unit", session.unit.rawValue),
      ("tz", session.zoneName),
      ("daily", settings.daily.rawValue),
      ("height", settings.height.map(SetCommand.formatHeight) ?? "not set"),
      ("pre-pregnancy", settings.prePregnancy.map(session.format) ?? "not set"),
      ("goal", settings.goal.map(session.format) ?? "not set"),
      ("pregnancy-start", settings.pregnancyStart?.description ?? "not set"),
      ("dedup", session.app.dedup.rawValue),
      ("autopush", session.app.autopush ? "on" : "off"),
      ("sync", session.app.syncOnLaunch ? "on" : "off"),
    ]
    let health = session.healthSettings()
    let knobs: [(String, String)] = [
      ("entitlement", health.hasBackgroundDeliveryEntitlement ? "on" : "off"),
      ("spurious", health.spuriousForegroundFire ? "on" : "off"),
      ("backoff", (TimeSpan(checkedSeconds: health.retryBackoff) ?? .maximum).description),
      ("platform", health.platform == .watchOS ? "watchos" : "ios"),
    ]
    let width = rows.map(\.0.count).max()!
    for (name, value) in rows + knobs {
      result.say(name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + value)
    }
    return result
  }
}

/// The validation every weight goes through (docs/language.md, "Numbers and their ranges").
enum WeightRule {
  /// The weights accepted without a warning, in kilograms.
  static let usual = 20.0...350.0
  /// The weights accepted without `force`, in kilograms: beyond them a weight is far from any
  /// body weight, most likely a slip of the unit (`70g`).
  static let plausible = 10.0...500.0

  /// Fails outside (0, 1000] kg (``Measure/mass``), saying so in the display unit and, when
  /// the number makes a usual weight in another unit, naming it (`180` while stones are shown
  /// → `did you mean 180kg?`).
  static func validate(_ kilograms: Double, at span: SourceSpan, unit: DisplayUnit)
    throws(Diagnostic)
  {
    let mass = Measure.mass
    guard !mass.contains(kilograms) else { return }
    func shown(_ kilograms: Double) -> String {
      DisplayUnit.formatNumber(unit.mass.fromKilograms(kilograms), decimals: 1)
        .droppingZeroFraction + " \(unit.rawValue)"
    }
    var message =
      "\(mass.noun) must be more than \(shown(mass.limits.lowerBound)) and at most \(shown(mass.limits.upperBound)), got \(unit.format(kilograms: kilograms))"
    if let guess = guess(for: span, unit: unit) { message += " (did you mean \(guess)?)" }
    throw Diagnostic(message, at: span)
  }

  /// The text at `span`, as the user wrote it (`70g`).
  private static func written(at span: SourceSpan) -> String {
    let utf8 = Array(span.text.utf8)
    return String(
      decoding: utf8[min(span.start, utf8.count)..<min(span.end, utf8.count)], as: UTF8.self)
  }

  /// The number written at `span` with the first unit, the display unit first, that makes it
  /// a usual weight (`70g` → `70kg`), or nil.
  private static func guess(for span: SourceSpan, unit: DisplayUnit) -> String? {
    let written = written(at: span)
    guard let number = NumberPrefix(written) else { return nil }
    let digits = written.dropLast(number.unit.count)
    let units = [unit.mass] + [MassUnit.kg, .lb, .st].filter { $0 != unit.mass }
    guard let found = units.first(where: { usual.contains($0.toKilograms(number.value)) }) else {
      return nil
    }
    return "\(digits)\(found.rawValue)"
  }

  /// Fails for a weight far outside any body weight unless `forced`, suggesting the number
  /// in a unit that makes it a usual weight (`70g` → `70kg`).
  static func checkPlausible(
    _ kilograms: Double, at span: SourceSpan, unit: DisplayUnit, forced: Bool
  ) throws(Diagnostic) {
    guard !forced, !plausible.contains(kilograms) else { return }
    let written = written(at: span)
    let side = kilograms < plausible.lowerBound ? "below" : "above"
    var message = "\(written) is \(unit.format(kilograms: kilograms)), far \(side) any body weight"
    if let guess = guess(for: span, unit: unit) { message += " (did you mean \(guess)?)" }
    throw Diagnostic(message + "; add force to keep it as written", at: span)
  }

  /// A warning for a weight outside 20–350 kg, which is accepted; in the display unit.
  static func warning(_ kilograms: Double, at span: SourceSpan, unit: DisplayUnit) -> Diagnostic? {
    guard !usual.contains(kilograms) else { return nil }
    let low = DisplayUnit.formatNumber(unit.mass.fromKilograms(usual.lowerBound), decimals: 0)
    let high = DisplayUnit.formatNumber(unit.mass.fromKilograms(usual.upperBound), decimals: 0)
    return Diagnostic(
      "\(unit.format(kilograms: kilograms)) is outside the usual \(low)–\(high) \(unit.rawValue); check the unit",
      at: span, severity: .warning)
  }
}

extension Session {
  /// Health's settings, without loading Health when it was never used.
  func healthSettings() -> HealthSettings {
    if let healthLink { return healthLink.health.settings }
    if hasStoredHealth, let health = try? health() { return health.settings }
    return HealthSettings()
  }
}
