/// How this session shows results, as chosen for it rather than stored: one part of a
/// ``Session``.
struct DisplayChoices {
  /// `--unit`, until `set unit` replaces it; nil: the store's setting.
  var unitOverride: DisplayUnit?
  /// `--format`, until `set format` changes it (not kept in the store).
  var format: OutputFormat
}
