/// The range a number read from the store (or from weigh's own export files) must lie in:
/// `ValueLimits` with the words an error uses. Loading, `weigh check` and the weigh file
/// importers test every number against one of these, so whatever they accept every command
/// can compute with.
public struct StoredValueRule: Sendable {
  /// What the value is, with its article (`a weight`).
  public let noun: String
  /// The range in words (`more than 0 and at most 1000 kg`).
  public let range: String
  /// Whether the value must be a whole number.
  public let isWhole: Bool
  private let lower: Double
  private let upper: Double
  private let lowerIsOpen: Bool

  /// A rule for numbers from `lower` to `upper`.
  init(
    _ noun: String, _ range: String, _ lower: Double, _ upper: Double, lowerIsOpen: Bool = false,
    whole: Bool = false
  ) {
    self.noun = noun
    self.range = range
    self.lower = lower
    self.upper = upper
    self.lowerIsOpen = lowerIsOpen
    self.isWhole = whole
  }

  /// Whether `value` is inside the range (and whole, when it must be).
  public func contains(_ value: Double) -> Bool {
    guard value.isFinite, value <= upper, lowerIsOpen ? value > lower : value >= lower else {
      return false
    }
    return !isWhole || value == value.rounded()
  }

  /// Whether `value` is inside the range.
  public func contains(_ value: Int64) -> Bool { contains(Double(value)) }

  /// `"kg" is 1e19, out of range: a weight is more than 0 and at most 1000 kg`.
  public func message(member: String, found text: String) -> String {
    "\"\(member)\" is \(text), out of range: \(noun) is \(range)"
  }

  /// Body mass (`ValueLimits.kilograms`, lower bound open).
  public static let kilograms = StoredValueRule(
    "a weight", "more than 0 and at most 1000 kg", ValueLimits.kilograms.lowerBound,
    ValueLimits.kilograms.upperBound, lowerIsOpen: true)
  /// Blood glucose in mg/dL (lower bound open).
  public static let glucose = StoredValueRule(
    "a glucose reading", "more than 0 and at most 10000 mg/dL",
    ValueLimits.milligramsPerDeciliter.lowerBound, ValueLimits.milligramsPerDeciliter.upperBound,
    lowerIsOpen: true)
  /// Steps in one sample.
  public static let steps = StoredValueRule(
    "a step count", "0 to 1000000 steps", ValueLimits.steps.lowerBound,
    ValueLimits.steps.upperBound)
  /// Active energy in one sample, kcal.
  public static let kilocalories = StoredValueRule(
    "an energy", "0 to 100000 kcal", ValueLimits.kilocalories.lowerBound,
    ValueLimits.kilocalories.upperBound)
  /// Exercise minutes in one sample.
  public static let exerciseMinutes = StoredValueRule(
    "an exercise time", "0 to 1440 min", ValueLimits.exerciseMinutes.lowerBound,
    ValueLimits.exerciseMinutes.upperBound)
  /// A workout's length in minutes (a duration).
  public static let workoutMinutes = StoredValueRule(
    "a workout's length", "0 to 1000 years in minutes", 0,
    Double(ValueLimits.durationSeconds.upperBound) / 60)
  /// A workout's length in seconds.
  public static let durationSeconds = StoredValueRule(
    "a duration", "0 to 1000 years (31556952000 s)",
    Double(ValueLimits.durationSeconds.lowerBound), Double(ValueLimits.durationSeconds.upperBound))
  /// A distance in metres: finite and not negative (one Earth–Sun distance at most).
  public static let meters = StoredValueRule("a distance", "0 to 1.5e11 m", 0, 1.5e11)
  /// Height in metres.
  public static let heightMeters = StoredValueRule(
    "a height", "0.3 to 3 m", ValueLimits.heightMeters.lowerBound,
    ValueLimits.heightMeters.upperBound)
  /// A Health value of a type the language does not write (height, heart rate, blood
  /// pressure, …): finite and not negative, as Health accepts it.
  static func healthAmount(_ noun: String, unit: String) -> StoredValueRule {
    StoredValueRule(
      noun, "a finite number of 0 or more \(unit)", 0, Double.greatestFiniteMagnitude)
  }
  /// Body fat, a fraction of 1 (0.25 is 25 %).
  public static let bodyFatFraction = StoredValueRule(
    "a body fat percentage", "a fraction from 0 to 1 (0.25 is 25 %)", 0, 1)
  /// A correlation's own value, which is always 0.
  public static let correlationValue = StoredValueRule(
    "a correlation's value", "0 (a correlation has no value of its own)", 0, 0)
  /// An instant in seconds since 1970 (1900-01-01 … 9999-12-31 UTC).
  public static let instant = StoredValueRule(
    "a time", "from 1900-01-01 to 9999-12-31 (UTC)", Double(ValueLimits.instant.lowerBound),
    Double(ValueLimits.instant.upperBound))
  /// An instant as a whole number of seconds since 1970.
  public static let wholeInstant = StoredValueRule(
    "a time", "a whole number of seconds from 1900-01-01 to 9999-12-31 (UTC)",
    Double(ValueLimits.instant.lowerBound), Double(ValueLimits.instant.upperBound), whole: true)
  /// An entry number.
  public static let entryNumber = StoredValueRule(
    "an entry number", "a whole number from 1 to 2147483647",
    Double(ValueLimits.entryNumber.lowerBound), Double(ValueLimits.entryNumber.upperBound),
    whole: true)
  /// An entry's revision.
  public static let revision = StoredValueRule(
    "a revision", "a whole number from 1 to 2147483647", Double(ValueLimits.revision.lowerBound),
    Double(ValueLimits.revision.upperBound), whole: true)
  /// A sync version.
  public static let syncVersion = StoredValueRule(
    "a sync version", "a whole number from 0 to 9007199254740991",
    Double(ValueLimits.syncVersion.lowerBound), Double(ValueLimits.syncVersion.upperBound),
    whole: true)
  /// An anchor or a change counter.
  public static let sequence = StoredValueRule(
    "an anchor", "a whole number from 0 to 9007199254740991",
    Double(ValueLimits.sequence.lowerBound), Double(ValueLimits.sequence.upperBound), whole: true)
  /// A Health change position (rows' `pos`).
  public static let position = StoredValueRule(
    "a change position", "a whole number from 1 to 9007199254740991", 1,
    Double(ValueLimits.sequence.upperBound), whole: true)
  /// A count of things (syncs, deliveries, readings).
  public static let count = StoredValueRule(
    "a count", "a whole number from 0 to 9007199254740991", 0,
    Double(ValueLimits.sequence.upperBound), whole: true)
}

extension JSONReader {
  /// The next number, which must satisfy `rule`; `member` names it in the error, which
  /// points at the number.
  ///
  /// - Complexity: O(1) beyond reading the number; the text is recovered only for an error.
  mutating func readNumber(_ member: String, _ rule: StoredValueRule) throws(JSONSyntaxError)
    -> Double
  {
    let start = try numberStart(member, rule)
    let value = try readDouble()
    guard rule.contains(value) else { throw outOfRange(member, rule, from: start) }
    return value
  }

  /// The next whole number, which must satisfy `rule`.
  mutating func readWhole(_ member: String, _ rule: StoredValueRule) throws(JSONSyntaxError)
    -> Int
  {
    let start = try numberStart(member, rule)
    do {
      let value = try readInt()
      guard rule.contains(Double(value)) else { throw outOfRange(member, rule, from: start) }
      return value
    } catch {
      // Too large for an Int, or with a fraction or exponent: say so in the rule's words.
      offset = start
      _ = try readDouble()
      throw outOfRange(member, rule, from: start)
    }
  }

  /// The next string, which must be a UUID as weigh writes them.
  mutating func readUUIDString(_ member: String) throws(JSONSyntaxError) -> String {
    guard peek() == 0x22 else { throw wrongType(member, "a UUID string") }
    let raw = try readRawString()
    // Checked on the raw bytes: a quarter of a large log's rows hold one.
    guard !raw.hasEscapes, StoredText.isUUID(raw.raw) else {
      throw error(
        "\"\(member)\" is not a UUID such as \"B3F2AF6D-0FC7-40C5-853B-559647364CEA\"",
        at: raw.offset)
    }
    return String(decoding: raw.raw, as: UTF8.self)
  }

  /// The next string, with a clear error when the value is of another kind.
  mutating func readString(_ member: String) throws(JSONSyntaxError) -> String {
    guard peek() == 0x22 else { throw wrongType(member, "a string") }
    return try readString()
  }

  private mutating func numberStart(_ member: String, _ rule: StoredValueRule)
    throws(JSONSyntaxError) -> Int
  {
    guard let byte = peek(), byte == 0x2D || (0x30...0x39).contains(byte) else {
      throw wrongType(member, "a number (\(rule.noun) is \(rule.range))")
    }
    return offset
  }

  private func outOfRange(_ member: String, _ rule: StoredValueRule, from start: Int)
    -> JSONSyntaxError
  {
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(start, offset)]), as: UTF8.self)
    return error(rule.message(member: member, found: text), at: start)
  }

  /// `"kg" must be a number, not a string`, at the value.
  mutating func wrongType(_ member: String, _ expected: String) -> JSONSyntaxError {
    let found: String
    switch peek() {
    case 0x22: found = "a string"
    case 0x7B: found = "an object"
    case 0x5B: found = "an array"
    case 0x74, 0x66: found = "true or false"
    case 0x6E: found = "null"
    case nil: found = "the end of the text"
    case 0x2D?, 0x30?, 0x31?, 0x32?, 0x33?, 0x34?, 0x35?, 0x36?, 0x37?, 0x38?, 0x39?:
      found = "a number"
    case let byte?:
      found =
        byte >= 0x21 && byte < 0x7F
        ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
    return error("\"\(member)\" must be \(expected), not \(found)")
  }
}

/// Checks of text values the store keeps.
public enum StoredText {
  /// Whether `text` is a UUID in the 8-4-4-4-12 hex form (either case).
  public static func isUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isUUID($0) }
  }

  /// Whether `bytes` are a UUID in the 8-4-4-4-12 hex form (either case).
  static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == 36 else { return false }
    for index in 0..<36 {
      let byte = bytes[index]
      if index == 8 || index == 13 || index == 18 || index == 23 {
        guard byte == 0x2D else { return false }
      } else {
        let isHex =
          (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
          || (0x61...0x66).contains(byte)
        guard isHex else { return false }
      }
    }
    return true
  }
}
