import Foundation

extension Date {
  /// The instant `seconds` after 1970-01-01T00:00:00Z.
  init(seconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(seconds)) }
}
