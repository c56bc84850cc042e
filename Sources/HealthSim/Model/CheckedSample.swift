/// A sample that passed the checks of a save that read nothing of the store (its dates,
/// value, metadata, workout and kind: `HealthStore.checkContent`), made only by running them.
///
/// A sample never changes, so the checks hold for it wherever it goes: `HealthStore.save(_:as:)`
/// given checked samples checks only what depends on the store (a UUID already taken, a
/// correlation's objects). An import checks its samples on the thread that reads the file,
/// off the thread that saves them (docs/performance.md, hrow16).
public struct CheckedSample: Sendable {
  /// The sample checked.
  public let sample: HealthSample

  /// `sample`, once its checks pass.
  ///
  /// - Throws: the `HealthError` a save of `sample` throws for the first check it fails.
  public init(checking sample: HealthSample) throws(HealthError) {
    try HealthStore.checkContent(of: sample)
    self.sample = sample
  }
}
