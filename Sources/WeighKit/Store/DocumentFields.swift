import Foundation

/// The members of one object in a store document, read with their types and ranges
/// checked: every accessor returns nil for a missing member and throws a `DocumentProblem`
/// (with the member's path) for a member of the wrong type or out of range. Members it is
/// not asked for are ignored, as they always were (a newer weigh may add some).
struct DocumentFields {
  /// The object's members.
  let members: [String: JSONValue]
  /// Where the object is in its document.
  let path: [DocumentProblem.Step]

  /// The members of `value`, which must be an object; `what` names it in the error.
  init(_ value: JSONValue, path: [DocumentProblem.Step], what: String) throws(DocumentProblem) {
    guard case .object(let members) = value else {
      throw DocumentProblem(
        path: path, message: "\(what) must be an object, not \(Self.kind(of: value))")
    }
    self.members = members
    self.path = path
  }

  /// The path of the member `key`.
  func path(_ key: String) -> [DocumentProblem.Step] { path + [.key(key)] }

  /// A problem with the member `key`.
  func problem(_ key: String, _ message: String) -> DocumentProblem {
    DocumentProblem(path: path(key), message: message)
  }

  /// The number `key`, which must satisfy `rule`.
  func number(_ key: String, _ rule: StoredValueRule) throws(DocumentProblem) -> Double? {
    guard let value = members[key] else { return nil }
    return try Self.number(value, key, rule, path: self.path(key))
  }

  /// The whole number `key`, which must satisfy `rule`.
  func whole(_ key: String, _ rule: StoredValueRule) throws(DocumentProblem) -> Int64? {
    guard let value = members[key] else { return nil }
    return try Self.whole(value, key, rule, path: self.path(key))
  }

  /// The string `key`.
  func string(_ key: String) throws(DocumentProblem) -> String? {
    guard let value = members[key] else { return nil }
    guard case .string(let text) = value else {
      throw problem(key, "\"\(key)\" must be a string, not \(Self.kind(of: value))")
    }
    return text
  }

  /// The string `key`, which must be one of `words`.
  func word(_ key: String, _ words: [String]) throws(DocumentProblem) -> String? {
    guard let value = members[key] else { return nil }
    guard case .string(let text) = value, words.contains(text) else {
      // Built only for the error: documents are read at every commit that sets one.
      let quoted = words.map { "\"\($0)\"" }.joined(separator: ", ")
      let found = value.stringValue.map { "\"\($0)\"" } ?? Self.kind(of: value)
      throw problem(key, "\"\(key)\" must be one of \(quoted), not \(found)")
    }
    return text
  }

  /// The string `key` as one of `Choice`'s cases, by raw value.
  func word<Choice: CaseIterable & RawRepresentable<String>>(
    _ key: String, _ choice: Choice.Type
  ) throws(DocumentProblem) -> Choice? {
    guard let value = members[key] else { return nil }
    if case .string(let text) = value, let choice = Choice(rawValue: text) { return choice }
    return try word(key, Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
  }

  /// The time zone name `key`, which this system must know.
  func timeZone(_ key: String) throws(DocumentProblem) -> String? {
    guard let text = try string(key) else { return nil }
    guard TimeZone(identifier: text) != nil else {
      throw problem(
        key, "\"\(key)\" is \"\(text)\", which is not a time zone name such as \"Europe/Paris\"")
    }
    return text
  }

  /// The Boolean `key`.
  func bool(_ key: String) throws(DocumentProblem) -> Bool? {
    guard let value = members[key] else { return nil }
    guard case .bool(let flag) = value else {
      throw problem(key, "\"\(key)\" must be true or false, not \(Self.kind(of: value))")
    }
    return flag
  }

  /// The array `key`.
  func array(_ key: String) throws(DocumentProblem) -> [JSONValue]? {
    guard let value = members[key] else { return nil }
    guard case .array(let items) = value else {
      throw problem(key, "\"\(key)\" must be an array, not \(Self.kind(of: value))")
    }
    return items
  }

  /// The object `key`.
  func object(_ key: String) throws(DocumentProblem) -> DocumentFields? {
    guard let value = members[key] else { return nil }
    return try DocumentFields(value, path: path(key), what: "\"\(key)\"")
  }

  /// `value` as a number satisfying `rule`; `name` names it in the error.
  ///
  /// `path` is asked for only when the value is refused.
  static func number(
    _ value: JSONValue, _ name: String, _ rule: StoredValueRule,
    path: @autoclosure () -> [DocumentProblem.Step]
  ) throws(DocumentProblem) -> Double {
    guard let number = value.doubleValue else {
      throw DocumentProblem(
        path: path(),
        message:
          "\"\(name)\" must be a number (\(rule.noun) is \(rule.range)), not \(kind(of: value))"
      )
    }
    guard rule.contains(number) else {
      throw DocumentProblem(path: path(), message: rule.message(member: name, found: text(value)))
    }
    return number
  }

  /// `value` as a whole number satisfying `rule`.
  static func whole(
    _ value: JSONValue, _ name: String, _ rule: StoredValueRule,
    path: @autoclosure () -> [DocumentProblem.Step]
  ) throws(DocumentProblem) -> Int64 {
    let number = try number(value, name, rule, path: path())
    guard case .integer(let integer) = value else {
      throw DocumentProblem(path: path(), message: rule.message(member: name, found: text(value)))
    }
    _ = number
    return Int64(integer)  // checked: Int and Int64 have one width
  }

  /// The kind of a value, with its article, for errors.
  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "true or false"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// A number as the error shows it.
  static func text(_ value: JSONValue) -> String {
    switch value {
    case .integer(let integer): String(integer)
    case .number(let number): String(number)
    default: kind(of: value)
    }
  }
}
