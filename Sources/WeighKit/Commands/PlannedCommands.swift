extension CommandTable {
  /// Commands of the language that arrive with later parts of weigh. They are listed by
  /// `help` and fail with `not implemented yet: <command>`.
  static let plannedCommands: [CommandSpec] = [
    planned(
      "health", .health,
      [
        "health add <quantity> [at <when>] [source <name>] [device <name>] [user-entered] [sync-id <id> version <n>]",
        "health delete <ref>", "health list [weight|glucose|steps|energy|exercise|workouts] [<range>]",
        "health auth", "health auth read|write allow|deny|reset", "health available yes|no",
        "health purge [older-than <duration>]", "health export <file.zip|file.xml>",
      ],
      "act on the simulated HealthKit database", "health add 70.2kg source Withings",
      keywords: ["add", "delete", "list", "auth", "available", "purge", "export"]),
    planned(
      "sync", .sync,
      ["sync [since anchor]", "sync all", "sync push", "sync status", "sync reset"],
      "anchored import from Health; prints imported N, removed N, skipped N (anchor A)",
      "sync since anchor", keywords: ["since", "all", "push", "status", "reset"]),
    planned(
      "observe", .life, ["observe on [immediate|hourly|daily|weekly]", "observe off"],
      "register the observer query and background delivery for body mass", "observe on hourly",
      keywords: ["on", "off"]),
    planned(
      "app", .life, ["app launch|foreground|background|quit|lock|unlock"],
      "app and device life-cycle events", "app background",
      keywords: ["launch", "foreground", "background", "quit", "lock", "unlock"]),
    planned(
      "fault", .life, ["fault completion skip <n>", "fault sync fail <n>"],
      "make the app's observer handler or sync fail", "fault completion skip 3",
      keywords: ["completion", "sync"]),
    planned(
      "simulate", .devices,
      [
        "simulate scale every <duration> [at <time>] [start <weight>] [drift <rate>] [noise <weight>] [source <name>] [device <name>] [as <name>]",
        "simulate glucose every <duration> [start <mg/dL>] [noise <mg/dL>] [as <name>]",
        "simulate steps every <duration> [mean <n>] [as <name>]", "simulate list",
        "simulate stop <name>|all",
      ],
      "simulated devices writing to Health on schedule", "simulate scale every 1d at 07:00",
      keywords: ["scale", "glucose", "steps", "list", "stop"]),
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
