/// A value kept once and shared by every copy of the struct that holds it: a copy of the
/// struct is one reference, where a copy of the value itself retained each of its strings
/// and collections. `HealthSample`, `SourceRevision` and `HealthDevice` keep their fields in
/// one, since a sample and its revision and device are copied several times on the way from
/// an import to the storage (docs/performance.md, "hmodel12").
///
/// The value is never changed in place, so sharing it is safe across threads. Equality,
/// hashing and coding are the value's own: the holder's coded form is the one a struct of
/// the same fields has (health.sqlite and the state document hold it).
final class SharedFields<Value: Hashable & Codable & Sendable>: Hashable, Codable, Sendable {
  let value: Value

  init(_ value: Value) { self.value = value }

  static func == (lhs: SharedFields, rhs: SharedFields) -> Bool {
    lhs === rhs || lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }

  init(from decoder: any Decoder) throws { value = try Value(from: decoder) }

  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
