/// A JSON value: the shape of the store's small named documents (settings, app state).
///
/// Integers and fractional numbers are kept apart so that counters and anchors keep their
/// exact integer value and print without a fraction.
public enum JSONValue: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits an `Int`.
  case integer(Int)
  /// Any other number; always finite.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; written with its keys in sorted order.
  case object([String: JSONValue])

  /// The member `key` of an object, or nil for a missing key or a value that is no object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The string payload, if this is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer payload, if this is an integer (or a number with an exact integer value).
  public var intValue: Int? {
    switch self {
    case .integer(let value): return value
    case .number(let value): return Int(exactly: value)
    default: return nil
    }
  }

  /// The numeric payload as a Double, if this is a number.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .number(let value): return value
    default: return nil
    }
  }

  /// The Boolean payload, if this is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A Boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A fractional number.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// An object; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension JSONValue {
  /// The members, if this is an object.
  var objectMembers: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }
}
