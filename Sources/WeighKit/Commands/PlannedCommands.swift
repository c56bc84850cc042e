extension CommandTable {
  /// Commands of the language that arrive with later parts of weigh. They are listed by
  /// `help` and fail with `not implemented yet: <command>`.
  static let plannedCommands: [CommandSpec] = [
    planned(
      "workout", .other, ["workout <exercise> <count> [reps|s|min] [at <when>]"],
      "save an exercise as a workout", "workout squats 20 reps"),
    planned(
      "glucose", .other, ["glucose [<range>]"], "glucose readings by band, mean, SD, CV",
      "glucose week"),
    planned(
      "summary", .other, ["summary [<date>] [json]"], "today's health summary", "summary json",
      keywords: ["json"]),
  ]
}
