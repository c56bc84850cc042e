extension CommandTable {
  /// Commands of the language that arrive with later parts of weigh. They are listed by
  /// `help` and fail with `not implemented yet: <command>`.
  static let plannedCommands: [CommandSpec] = []
}
