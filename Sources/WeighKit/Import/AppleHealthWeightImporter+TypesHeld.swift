import Foundation

extension AppleHealthWeightImporter {
  /// The types among `recordTypes` (and `healthWorkoutType`, when `workouts`) that `url`
  /// holds at least one record of, valid or not.
  ///
  /// Asked only when a plain import found no body mass, to say what `types` would bring: a
  /// real export of heart rate alone (real24) was told that its other data comes in with
  /// `types`, which would have brought nothing.
  ///
  /// - Throws: `ImportError` when the file is not a well-formed export.
  /// - Complexity: one more pass over the file; memory stays that of the parser.
  public static func typesHeld(in url: URL, among recordTypes: Set<String>, workouts: Bool)
    throws -> Set<String>
  {
    var held: Set<String> = []
    var asked = recordTypes
    if workouts { asked.insert(healthWorkoutType) }
    _ = try AppleHealthExportReader.read(contentsOf: url, recordTypes: asked) { item, _ in
      switch item {
      case .record(let record) where asked.contains(record.type):
        held.insert(record.type)
      case .workout:
        held.insert(healthWorkoutType)
      case .invalid(let rejection):
        if let type = rejection.recordType, asked.contains(type) { held.insert(type) }
      default:
        break
      }
    }
    return held
  }
}
