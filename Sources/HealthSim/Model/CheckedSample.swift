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
  /// What the storage made of the sample ahead of its save (`StoragePreparation`), handed
  /// back to it when the sample is saved; nil when it made nothing.
  public let preparation: (any StoragePreparation)?

  /// `sample`, once its checks pass.
  ///
  /// - Throws: the `HealthError` a save of `sample` throws for the first check it fails.
  public init(checking sample: HealthSample) throws(HealthError) {
    try HealthStore.checkContent(of: sample)
    self.sample = sample
    preparation = nil
  }

  /// `sample`, once its checks pass, with what `prepare` (a storage's own step) makes of it
  /// then: an import calls it on its reading thread, so that the saving thread does less.
  ///
  /// - Throws: the `HealthError` a save of `sample` throws for the first check it fails
  ///   (`prepare` is then not called).
  public init(
    checking sample: HealthSample, preparing prepare: (HealthSample) -> (any StoragePreparation)?
  ) throws(HealthError) {
    try HealthStore.checkContent(of: sample)
    self.sample = sample
    preparation = prepare(sample)
  }
}
