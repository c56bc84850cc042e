/// A row or record an importer did not take, with the line it starts on and why.
public struct ImportRejection: Error, Hashable, Sendable {
  /// The 1-based line the row or record starts on.
  public var line: Int
  /// Lower case, specific, naming the fix.
  public var reason: String
  /// The Apple Health type of the rejected record (`HKWorkoutTypeIdentifier` for a workout),
  /// so that the report counts it on its type's line; nil when unknown or not Apple's.
  public var recordType: String?

  /// A rejection.
  public init(line: Int, reason: String, recordType: String? = nil) {
    self.line = line
    self.reason = reason
    self.recordType = recordType
  }

  /// The row's line in `file`, the file imported; ``DiagnosticRenderer`` writes it.
  public func location(in file: String) -> SourceLocation {
    SourceLocation(file: file, line: line)
  }
}
