import Testing

/// Runs a property's body, recording a thrown error as a failure: `propertyCheck` drops
/// errors its body throws, so a property that throws would otherwise pass.
func failingOnThrow(_ body: () throws -> Void) {
  do { try body() } catch { Issue.record(error) }
}
