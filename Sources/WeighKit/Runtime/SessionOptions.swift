/// How a session is set up by its front end (command-line flags, or `weigh test`).
public struct SessionOptions: Sendable {
  public var store: StoreLocation = .memory
  /// Run on after a failed command (scripts stop at the first one otherwise).
  public var keepGoing = false
  /// `--force`: keep weights far outside any body weight as written, as `log … force` does.
  public var force = false
  /// `--echo`: print each statement before its output.
  public var echo = false
  /// A virtual clock to start on; nil runs on the wall clock until `clock` is used.
  public var clock: Int64?
  /// `--clock` as written (`today 07:30`, `-3d`): read when the session starts, against the
  /// wall clock in the session's zone (which the store's settings may decide); wins over
  /// `clock`.
  public var clockWords: String?
  public var seed: UInt64 = 1
  /// Overrides the stored time zone for this session.
  public var timeZone: String?
  /// Overrides the stored display unit for this session.
  public var unit: DisplayUnit?
  /// How results are shown (`--format`).
  public var format: OutputFormat = .text
  /// The REPL: an error never ends the session, diagnostics show only a caret.
  public var interactive = false
  public var color = false
  /// The terminal's width, when output goes to a terminal.
  public var terminalColumns: Int?
  /// How long to wait for another process's lock on the store.
  public var lockTimeout: Double = 5
  /// How many samples `import … types …` holds before it checks and saves them (tests make
  /// it small to import a file in several batches).
  var healthImportBatchSize = HealthImportPlan.defaultBatchSize

  public init() {}

  /// The fixed environment of golden tests: an in-memory store, clock
  /// 2026-01-01T08:00:00Z, UTC, seed 1, kg, no colour, `--keep-going`.
  public static var golden: SessionOptions {
    var options = SessionOptions()
    options.keepGoing = true
    options.clock = 1_767_254_400
    options.seed = 1
    options.timeZone = "UTC"
    options.unit = .kg
    return options
  }
}
