import Foundation
import HealthKit

/// Keeps the anchored query's position across launches: the HKQueryAnchor archived with
/// NSKeyedArchiver (secure coding) in a file the app chooses.
public struct AnchorStore: Sendable {
  /// The file the anchor is kept in.
  public let fileURL: URL

  /// An anchor kept in `fileURL`.
  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// The anchor saved last, or nil before the first import (or when the file is damaged:
  /// the next import then starts over, and the log's UUID check keeps it from doubling).
  public func load() -> HKQueryAnchor? {
    guard let data = try? Data(contentsOf: fileURL) else { return nil }
    return try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
  }

  /// Saves the anchor, replacing the previous one at once.
  public func save(_ anchor: HKQueryAnchor) throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: anchor, requiringSecureCoding: true)
    try data.write(to: fileURL, options: .atomic)
  }

  /// Forgets the anchor, so the next import reads everything Health keeps.
  public func reset() throws {
    guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
    try FileManager.default.removeItem(at: fileURL)
  }
}
