/// An opaque position in the store's change history (HKQueryAnchor).
///
/// It wraps the store-wide change counter: every save and delete takes the next value.
public struct QueryAnchor: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
  /// The change position; apps store it and feed it back, never interpret it.
  public let rawValue: Int64

  /// The anchor at a change position (HKQueryAnchor(fromValue:)).
  public init(fromValue rawValue: Int64) { self.rawValue = rawValue }

  /// The anchor before any change (HKAnchoredObjectQueryNoAnchor).
  public static let noAnchor = QueryAnchor(fromValue: 0)

  public static func < (lhs: QueryAnchor, rhs: QueryAnchor) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { String(rawValue) }
}
