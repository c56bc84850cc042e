import Foundation

/// A metadata value: HealthKit stores strings, numbers, booleans (as numbers) and dates.
public enum MetadataValue: Hashable, Codable, Sendable, CustomStringConvertible {
  case string(String)
  case number(Double)
  case bool(Bool)
  case date(Date)

  /// The value as a number: numbers as is, booleans as 0 or 1, numeric strings parsed.
  public var numberValue: Double? {
    switch self {
    case .number(let value): return value
    case .bool(let value): return value ? 1 : 0
    case .string(let text): return Double(text)
    case .date: return nil
    }
  }

  /// The value as a string, if it is one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value as HealthKit exports print it: booleans as 0/1, integral numbers without ".0".
  public var description: String {
    switch self {
    case .string(let text): return text
    case .bool(let value): return value ? "1" : "0"
    case .number(let value):
      if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) {
        return String(whole)
      }
      return String(value)
    case .date(let date): return ISO8601DateFormatter().string(from: date)
    }
  }
}

/// HealthKit's metadata keys, as their raw strings appear in exports.
public enum MetadataKey {
  /// HKMetadataKeyWasUserEntered: a boolean, true for manual entries.
  public static let wasUserEntered = "HKWasUserEntered"
  /// HKMetadataKeySyncIdentifier: a string that identifies a sample across saves.
  public static let syncIdentifier = "HKMetadataKeySyncIdentifier"
  /// HKMetadataKeySyncVersion: a number; a higher version replaces a lower one.
  public static let syncVersion = "HKMetadataKeySyncVersion"
  /// HKMetadataKeyExternalUUID: a string; uniqueness is not enforced.
  public static let externalUUID = "HKExternalUUID"
  /// HKMetadataKeyTimeZone: an IANA time zone name.
  public static let timeZone = "HKTimeZone"
}

/// A sample's metadata dictionary.
public typealias Metadata = [String: MetadataValue]
