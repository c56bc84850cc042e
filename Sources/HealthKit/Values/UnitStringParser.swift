import Foundation

/// Why a unit string is invalid, and where.
struct UnitStringError: Error, CustomStringConvertible, Equatable {
  /// The 1-based column (in Unicode scalars) where reading stopped.
  let column: Int
  /// What is wrong there and how to fix it.
  let message: String
  let string: String

  var description: String { "invalid unit string '\(string)' at column \(column): \(message)" }
}

/// Reads HealthKit unit strings.
///
/// ```
/// unit      = quotient | "()"
/// quotient  = product [ "/" product ]          one "/" per level, as in HealthKit
/// product   = power { ("*" | "." | "·") power }
/// power     = primary [ "^" integer ]          integer: optional sign, |n| ≤ 2147483647
/// primary   = "(" quotient ")" | "1" | factor
/// factor    = [prefix] root [ "<" molar-mass ">" ]
/// ```
/// Multiplication binds tighter than division, so `kg/m.s^2` means `kg/(m·s^2)`. Prefixes
/// (`p n mc m c d da h k M G T f`) apply only to SI roots (`g m L Pa s J cal K S Hz V W rad
/// lx mol`); `mol` needs a positive molar mass in grams per mole (`mmol<180.16>`). The parser
/// never traps: nesting is limited and every number is range-checked.
enum UnitStringParser {
  static let maximumNesting = 32

  static func parse(_ string: String) -> Result<[PoweredFactor], UnitStringError> {
    if string == "()" { return .success([]) }
    var reader = Reader(string: string)
    do throws(UnitStringError) {
      guard !reader.atEnd else {
        throw reader.error("the unit string is empty; write a unit such as 'kg' or 'count/min'")
      }
      let factors = try reader.quotient(depth: 0)
      guard reader.atEnd else {
        let message =
          switch reader.peek {
          case "/": "only one '/' is allowed; write 'a/b·c' or 'a/(b·c)' for a over b times c"
          case ")": "this ')' has no matching '('; remove it"
          default: "unexpected '\(reader.peekText)'; join units with '*' or '/'"
          }
        throw reader.error(message)
      }
      return .success(factors)
    } catch {
      return .failure(error)
    }
  }

  private struct Reader {
    let string: String
    let scalars: [Unicode.Scalar]
    var position = 0

    init(string: String) {
      self.string = string
      self.scalars = Array(string.unicodeScalars)
    }

    var atEnd: Bool { position >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[position] }
    var peekText: String { peek.map { String($0) } ?? "end of string" }

    func error(_ message: String, at column: Int? = nil) -> UnitStringError {
      UnitStringError(column: column ?? position + 1, message: message, string: string)
    }

    static let multiplication: Set<Unicode.Scalar> = ["*", ".", "·"]
    static let operators: Set<Unicode.Scalar> = ["*", ".", "·", "/", "^", "(", ")", "<", ">"]

    mutating func quotient(depth: Int) throws(UnitStringError) -> [PoweredFactor] {
      var factors = try product(depth: depth)
      if peek == "/" {
        position += 1
        let denominator = try product(depth: depth)
        // Powers lie within ±exponentLimit, so negating one cannot overflow.
        factors += denominator.map { PoweredFactor(factor: $0.factor, exponent: -$0.exponent) }
      }
      return factors
    }

    mutating func product(depth: Int) throws(UnitStringError) -> [PoweredFactor] {
      var factors = try power(depth: depth)
      while let next = peek, Reader.multiplication.contains(next) {
        position += 1
        factors += try power(depth: depth)
      }
      return factors
    }

    mutating func power(depth: Int) throws(UnitStringError) -> [PoweredFactor] {
      let base = try primary(depth: depth)
      guard peek == "^" else { return base }
      position += 1
      let exponent = try integer()
      return try base.map { term throws(UnitStringError) in
        let (product, overflow) = term.exponent.multipliedReportingOverflow(by: exponent)
        guard !overflow, abs(product) <= HKUnit.exponentLimit else {
          throw error("the power is too large; powers must lie within ±2147483647")
        }
        return PoweredFactor(factor: term.factor, exponent: product)
      }
    }

    mutating func primary(depth: Int) throws(UnitStringError) -> [PoweredFactor] {
      guard let next = peek else {
        throw error("a unit is missing at the end; write one such as 'g' or 'min'")
      }
      if next == "(" {
        guard depth < UnitStringParser.maximumNesting else {
          throw error("parentheses nest too deeply; use at most 32 levels")
        }
        let open = position
        position += 1
        let inner = try quotient(depth: depth + 1)
        guard peek == ")" else {
          throw error(
            "the '(' at column \(open + 1) is not closed; add ')'", at: position + 1)
        }
        position += 1
        return inner
      }
      if next == "1" {
        position += 1
        return []
      }
      return [PoweredFactor(factor: try factor(), exponent: 1)]
    }

    mutating func factor() throws(UnitStringError) -> UnitFactor {
      let start = position
      while let next = peek, !Reader.operators.contains(next) { position += 1 }
      let name = String(String.UnicodeScalarView(scalars[start..<position]))
      guard !name.isEmpty else {
        throw error("expected a unit before '\(peekText)', such as 'g' or 'min'")
      }
      guard let (prefix, root) = UnitStringParser.resolve(name) else {
        throw error(
          "unknown unit '\(name)'; use HealthKit's symbols such as kg, mg/dL, lb, count, min",
          at: start + 1)
      }
      guard root.takesMolarMass else {
        if peek == "<" { throw error("'\(name)' takes no molar mass; only mol does") }
        return UnitFactor(root, prefix: prefix)
      }
      guard peek == "<" else {
        throw error("'\(name)' needs a molar mass in grams per mole, e.g. '\(name)<180.16>'")
      }
      position += 1
      let massStart = position
      while let next = peek, next != ">" { position += 1 }
      guard peek == ">" else {
        throw error("the molar mass is not closed; add '>'")
      }
      let text = String(String.UnicodeScalarView(scalars[massStart..<position]))
      guard let mass = UnitStringParser.positiveNumber(text) else {
        throw error(
          "the molar mass '\(text)' is not a positive number of grams per mole",
          at: massStart + 1)
      }
      position += 1
      return UnitFactor(root, prefix: prefix, molarMass: mass)
    }

    mutating func integer() throws(UnitStringError) -> Int {
      let start = position
      if peek == "-" || peek == "+" { position += 1 }
      let digitsStart = position
      while let next = peek, ("0"..."9").contains(next) { position += 1 }
      guard position > digitsStart else {
        throw error("'^' needs an integer power, such as '^2' or '^-1'")
      }
      let text = String(String.UnicodeScalarView(scalars[start..<position]))
      // checked: parses text, nil when out of range
      guard let value = Int(text), abs(value) <= HKUnit.exponentLimit else {
        throw error(
          "the power \(text) is too large; powers must lie within ±2147483647", at: start + 1)
      }
      return value
    }
  }

  /// The prefix and root a factor's name stands for; whole names (`kcal`, `mmHg`, `min`) win
  /// over a prefix reading.
  static func resolve(_ name: String) -> (HKMetricPrefix, RootUnit)? {
    if let root = RootUnit.bySymbol[name] { return (.none, root) }
    for prefix in HKMetricPrefix.all where prefix != .none && name.hasPrefix(prefix.symbol) {
      let rest = String(name.dropFirst(prefix.symbol.count))
      if let root = RootUnit.bySymbol[rest], root.takesPrefix { return (prefix, root) }
    }
    return nil
  }

  /// A finite, positive decimal number (`180.15588000005408`, `1e-05`); nil for anything else,
  /// including `inf`, `nan` and hexadecimal.
  static func positiveNumber(_ text: String) -> Double? {
    let allowed = Set("0123456789.eE+-")
    guard !text.isEmpty, text.count <= 64, text.allSatisfy({ allowed.contains($0) }),
      let first = text.first, first.isNumber || first == ".",
      let value = Double(text), value.isFinite, value > 0
    else { return nil }
    return value
  }
}
