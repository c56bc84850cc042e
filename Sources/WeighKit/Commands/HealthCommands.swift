import Foundation
import HealthSim

extension CommandTable {
  static let healthCommands: [CommandSpec] = [
    CommandSpec(
      name: "health", group: .health,
      usage: [
        "health add <quantity> [exercise] [at <when>] [source <name>] [device <name>] [user-entered] [sync-id <id> version <n>]",
        "health delete <uuid prefix>|last",
        "health list [weight|glucose|steps|energy|exercise|workouts] [<range>]",
        "health auth", "health auth read|write allow|deny|reset", "health available yes|no",
        "health purge [older-than <duration>]", "health export <file.zip|file.xml>",
      ],
      summary: "act on the simulated HealthKit database as another app, a device or the user",
      example: "health add 70.2kg source Withings device \"Body+\"",
      parse: { cursor throws(Diagnostic) in try parseHealth(&cursor) })
  ]

  private static func parseHealth(_ cursor: inout ArgumentCursor) throws(Diagnostic)
    -> any Executable
  {
    let verb = try cursor.expect(
      oneOf: ["add", "delete", "list", "auth", "available", "purge", "export"],
      what: "a health action")
    switch verb {
    case "add": return try HealthAddCommand.parse(&cursor)
    case "delete":
      let token = cursor.peek()
      let reference = try cursor.readSampleReference()
      try cursor.expectEnd(after: "the sample")
      return HealthDeleteCommand(reference: reference, span: cursor.span(token))
    case "list":
      let kind = cursor.take(oneOf: HealthListCommand.kinds.map(\.0)) ?? "weight"
      let range = try EntryRange.parse(&cursor)
      try cursor.expectEnd(after: "the range")
      return HealthListCommand(kind: kind, range: range)
    case "auth":
      guard !cursor.isAtEnd else { return HealthAuthCommand(change: nil) }
      let which = try cursor.expect(oneOf: ["read", "write"], what: "read or write")
      let decision = try cursor.expect(oneOf: ["allow", "deny", "reset"], what: "a decision")
      try cursor.expectEnd(after: "the decision")
      return HealthAuthCommand(change: (which, decision))
    case "available":
      let answer = try cursor.expect(oneOf: ["yes", "no"], what: "yes or no")
      try cursor.expectEnd(after: "yes or no")
      return HealthAvailableCommand(available: answer == "yes")
    case "purge":
      var age: TimeSpan?
      if cursor.take("older-than") { age = try cursor.readDuration() }
      try cursor.expectEnd(after: "the purge")
      return HealthPurgeCommand(age: age)
    default:
      return try HealthExportCommand.parse(&cursor)
    }
  }
}

/// `health add <quantity> …`: another app or device writes a sample.
struct HealthAddCommand: Executable {
  var type: SampleType
  var value: Double
  var valueSpan: SourceSpan
  var instant: Int64?
  var instantSpan: SourceSpan?
  var source: String?
  var device: String?
  var userEntered = false
  var syncID: String?
  var syncVersion: Double?

  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> HealthAddCommand {
    let first = cursor.peek()
    let quantity = try cursor.readQuantity(
      [.mass, .glucose, .count, .energy, .time],
      expected: "a quantity such as 70.2kg, 105mg/dL, 8000steps, 350kcal or 30min exercise")
    let span = cursor.span(from: first!, to: cursor.tokens[cursor.index - 1])
    var command: HealthAddCommand
    switch quantity.kind {
    case .mass:
      try WeightRule.validate(quantity.value, at: span, unit: cursor.context.unit)
      command = HealthAddCommand(type: .bodyMass, value: quantity.value, valueSpan: span)
    case .glucose:
      try Measure.glucose.validate(quantity.value, at: span)
      command = HealthAddCommand(type: .bloodGlucose, value: quantity.value, valueSpan: span)
    case .count:
      try Measure.steps.validate(quantity.value, at: span)
      command = HealthAddCommand(type: .stepCount, value: quantity.value, valueSpan: span)
    case .energy:
      try Measure.energy.validate(quantity.value, at: span)
      command = HealthAddCommand(type: .activeEnergyBurned, value: quantity.value, valueSpan: span)
    default:
      guard cursor.take("exercise") else {
        throw Diagnostic(
          "a time is exercise time: write \(first!.text) exercise", at: span)
      }
      try Measure.exerciseMinutes.validate(quantity.value / 60, at: span)
      command = HealthAddCommand(
        type: .appleExerciseTime, value: quantity.value / 60, valueSpan: span)
    }
    while let token = cursor.peek() {
      if command.instant == nil, token.isWord("at") {
        _ = cursor.next()
        let (instant, instantSpan) = try cursor.readInstant()
        (command.instant, command.instantSpan) = (instant, instantSpan)
      } else if command.source == nil, token.isWord("source") {
        _ = cursor.next()
        command.source = try cursor.readString("a source name such as Withings")
      } else if command.device == nil, token.isWord("device") {
        _ = cursor.next()
        command.device = try cursor.readString("a device name such as \"Body+\"")
      } else if token.isWord("user-entered") {
        _ = cursor.next()
        command.userEntered = true
      } else if command.syncID == nil, token.isWord("sync-id") {
        _ = cursor.next()
        command.syncID = try cursor.readString("a sync identifier such as w-17")
        try cursor.expect("version", in: "sync-id <id> version <n>")
        let versionToken = cursor.peek()
        guard let versionToken, versionToken.kind == .word,
          let version = DecimalText.parseWhole(versionToken.text, in: ValueLimits.syncVersion)
        else {
          throw cursor.error(
            "expected a sync version: a whole number from 0 to \(ValueLimits.syncVersion.upperBound) such as 2, \(cursor.got(versionToken))",
            at: versionToken)
        }
        _ = cursor.next()
        command.syncVersion = Double(version)
      } else {
        throw cursor.error(
          "expected at, source, device, user-entered or sync-id, \(cursor.got(token))", at: token)
      }
    }
    return command
  }

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    // Health reads older samples itself if a sync identifier needs them.
    let health = try session.health()
    let start = instant ?? session.now
    if start > session.now + 60 {
      throw Diagnostic(
        "cannot add a sample in the future: \(session.zone.minuteText(start)) is after the clock (\(session.zone.minuteText(session.now)))",
        at: instantSpan ?? valueSpan)
    }
    let name = source ?? "Health"
    var metadata: Metadata = [:]
    if userEntered { metadata[MetadataKey.wasUserEntered] = .number(1) }
    if let syncID { metadata[MetadataKey.syncIdentifier] = .string(syncID) }
    if let syncVersion { metadata[MetadataKey.syncVersion] = .number(syncVersion) }
    let sample = HealthSample(
      type: type, value: value, start: Date(seconds: start),
      end: type.isInstantaneous ? nil : Date(seconds: start + 60),
      device: device.map { HealthDevice(name: $0) }, metadata: metadata)
    let revision = SourceRevision(
      source: HealthSource(name: name, bundleIdentifier: Self.bundle(for: name)))
    let saved: [HealthSample]
    do throws(HealthError) { saved = try health.save([sample], as: revision) } catch {
      throw Self.failure(error, at: valueSpan)
    }
    guard let stored = saved.first, let uuid = stored.uuid else {
      result.say(
        "ignored: \(name) already has sync-id \(syncID ?? "") at this version or higher")
      return result
    }
    result.say(
      "added \(uuid.shortText) \(session.zone.minuteText(start)) \(session.describe(stored))")
    return result
  }

  static func failure(_ error: HealthError, at span: SourceSpan) -> Diagnostic {
    Diagnostic("Health refused the sample: \(Session.describe(error))", at: span)
  }

  /// A stable bundle identifier for a source name (`Withings` → `sim.withings`).
  static func bundle(for name: String) -> String {
    if name == "Health" { return "com.apple.Health" }
    let slug = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    return "sim." + slug
  }
}

extension UUID {
  /// The first eight hex digits, lower case: how samples are shown and referred to.
  var shortText: String { String(uuidString.prefix(8)).lowercased() }
}

/// `health delete <ref>`: the owning source deletes a sample.
struct HealthDeleteCommand: Executable {
  var reference: String
  var span: SourceSpan

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    let sample = try Self.resolve(reference, in: health, at: span)
    do throws(HealthError) { _ = try health.deleteAsOwner([sample.uuid!]) } catch {
      throw Diagnostic("Health refused the deletion: \(Session.describe(error))", at: span)
    }
    let start = sample.startInstant
    result.say(
      "deleted \(sample.uuid!.shortText) \(session.zone.minuteText(start)) \(session.describe(sample))"
    )
    return result
  }

  /// The live sample a UUID, a unique prefix of 4+ hex digits, or `last` names: looked up
  /// by the storage's indexes (the newest start per type; a range of UUIDs, two at most),
  /// so the cost does not grow with Health's history.
  static func resolve(
    _ reference: String, in health: HealthStore, at span: SourceSpan
  ) throws(Diagnostic) -> HealthSample {
    if reference.lowercased() == "last" {
      // The newest start date; on a tie, the most recently saved.
      guard let newest = health.newestSample() else {
        throw Diagnostic("Health has no samples, so there is no last one", at: span)
      }
      return newest
    }
    let prefix = reference.lowercased().replacingOccurrences(of: "-", with: "")
    guard prefix.count >= 4, prefix.allSatisfy(\.isHexDigit) else {
      throw Diagnostic(
        "expected a sample: a UUID or at least 4 of its hex digits (health list shows them), or last; got \"\(reference)\"",
        at: span)
    }
    let matches = health.samples(uuidPrefix: prefix, limit: 2)
    guard let first = matches.first else {
      throw Diagnostic("no live sample starts with \(reference); health list shows them", at: span)
    }
    guard matches.count == 1 else {
      throw Diagnostic(
        "more than one live sample starts with \(reference); give more digits", at: span)
    }
    return first
  }
}

/// `health list [type] [range]`
struct HealthListCommand: Executable {
  static let kinds: [(String, SampleType)] = [
    ("weight", .bodyMass), ("glucose", .bloodGlucose), ("steps", .stepCount),
    ("energy", .activeEnergyBurned), ("exercise", .appleExerciseTime), ("workouts", .workout),
  ]
  var kind: String
  var range: EntryRange

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    let health = try session.health()
    let type = Self.kinds.first { $0.0 == kind }!.1
    let samples = range.select(
      candidates(of: type, in: health, session: session), instant: \.startInstant, in: session)
    return CommandResult(.healthSamples(HealthSampleList(kind: kind, samples: samples)))
  }

  /// What `range` can select, read through the start-date index from the range's first
  /// instant, or for `last N` from a window back from the newest start that holds N (a day,
  /// then twice as far each time): `health list steps last 1` on the 1 GB export's store read
  /// and decoded every one of its 1,076,694 steps (679 MiB). Samples starting at the same
  /// second are all in a window or all out, so the range selects what it selects from all.
  private func candidates(of type: SampleType, in health: HealthStore, session: Session)
    -> [HealthSample]
  {
    if let start = range.earliestInstant(in: session) {
      return health.allSamples(of: type, startingIn: Self.starting(at: start))
    }
    guard case .last(let count) = range, let newest = health.newestSample(of: [type]) else {
      return health.allSamples(of: type)
    }
    var span: Int64 = 86_400
    while let start = Instant.subtracting(TimeSpan(seconds: span), from: newest.startInstant) {
      let found = health.allSamples(of: type, startingIn: Self.starting(at: start))
      if found.count >= count { return found }
      span *= 2  // checked: at most twice the instants' range, far from Int64's limit
    }
    return health.allSamples(of: type)
  }

  /// The start dates from `instant` on: from any date when it is the earliest instant there
  /// is (a start before 1900 is shown as 1900), to any date after.
  private static func starting(at instant: Int64) -> Range<Date> {
    let lower =
      instant <= ValueLimits.instant.lowerBound ? Date.distantPast : Date(seconds: instant)
    return lower..<Date(timeIntervalSince1970: .greatestFiniteMagnitude)
  }
}

/// `health auth [read|write allow|deny|reset]`
struct HealthAuthCommand: Executable {
  var change: (which: String, decision: String)?

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let health = try session.health()
    if let change {
      let decision: AuthorizationDecision =
        change.decision == "allow"
        ? .authorized : change.decision == "deny" ? .denied : .notDetermined
      if change.which == "read" {
        health.setReadAuthorization(decision)
      } else {
        health.setWriteAuthorization(decision)
      }
      result.say("\(change.which): \(decision.rawValue) (decided by the user, outside the app)")
      return result
    }
    let status = health.authorizationStatus(for: .bodyMass)
    result.say("write: \(status.name) (the app cannot see whether it may read)")
    return result
  }
}

extension AuthorizationStatus {
  /// HealthKit's name of the status.
  var name: String {
    switch self {
    case .notDetermined: "notDetermined"
    case .sharingDenied: "sharingDenied"
    case .sharingAuthorized: "sharingAuthorized"
    }
  }
}

/// `health available yes|no`
struct HealthAvailableCommand: Executable {
  var available: Bool

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    try session.health().setHealthDataAvailable(available)
    result.say("health data \(available ? "available" : "unavailable") on this device")
    return result
  }
}

/// `health purge [older-than <duration>]`
struct HealthPurgeCommand: Executable {
  var age: TimeSpan?

  func execute(in session: Session) throws(Diagnostic) -> CommandResult {
    var result = CommandResult()
    let count = try session.health().purgeDeletedObjects(
      olderThan: age.map { TimeInterval($0.seconds) })
    result.say("purged \(English.counted(count, "deleted-object record"))")
    return result
  }
}
