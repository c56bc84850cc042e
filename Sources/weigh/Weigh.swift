import ArgumentParser
import Foundation
import LineEditing
import WeighKit

@main
struct Weigh: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "weigh",
    abstract: "A weight log and a simulated HealthKit, driven by a small command language.",
    usage: """
      weigh [<options>] [<file.wcfg> | - ...] [-e <command> ...]
      weigh [<options>] <command> [<argument> ...]
      weigh test [<path> ...] [--update]
      weigh check [--store <dir>] [--repair]
      """,
    discussion: """
      With no file, no -e and a terminal on stdin, weigh opens the REPL; otherwise it \
      runs the scripts, the -e commands, or stdin, headless. A first argument that names a \
      command of the language and no file runs that one command: weigh log 70kg, \
      weigh list last 5. `;` separates statements on one line.

      Options of `weigh` (see `weigh help run`), before or after a subcommand: --store <dir>, \
      --memory, --keep-going, --echo, --force, --clock <instant>, --seed <n>, --tz <zone>, \
      --unit kg|lb|st, --format text|json|csv, --color auto|always|never, -e <command>.

      Exit status: 0 success, 1 a command or expect failed, 64 bad usage, 65 the store \
      cannot be read, 66 a script or input file cannot be read.
      """,
    version: WeighVersion.current,
    subcommands: [
      Run.self, Test.self, Check.self, Help.self, CompletionScript.self, CompleteLine.self,
    ],
    defaultSubcommand: Run.self)

  /// Options may stand before or after a subcommand, and `weigh log 70kg` is shorthand for
  /// `weigh -e 'log 70kg'` (``ArgumentLayout``).
  static func main() {
    let arguments = ArgumentLayout.arrange(Array(CommandLine.arguments.dropFirst())) { path in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        && !isFolder.boolValue
    }
    // The common invocations skip swift-argument-parser (see `RunArguments.fast`); a
    // failed check is left to the parser, which words the error and the usage.
    if let fast = RunArguments.fast(arguments), (try? fast.validate()) != nil {
      do { try fast.run() } catch { exit(withError: error) }
      return
    }
    do {
      var command = try parseAsRoot(arguments)
      try command.run()
    } catch {
      // A bad option of a run (`weigh --clock tomorow`) shows weigh's own usage: swift-
      // argument-parser would show `weigh run`'s, a subcommand the user never typed.
      let explicit = arguments.first.map(ArgumentLayout.subcommandNames.contains) ?? false
      guard !explicit, !(error is ExitCode), exitCode(for: error) == .validationFailure else {
        exit(withError: error)
      }
      let usage = configuration.usage?.split(separator: "\n").prefix(2) ?? []
      FileHandle.standardError.write(
        Data(
          ("Error: \(message(for: error))\n"
            + usage.enumerated().map { ($0 == 0 ? "Usage: " : "       ") + $1 + "\n" }.joined()
            + "  See 'weigh --help' for more information.\n").utf8))
      exit(withError: ExitCode.validationFailure)
    }
  }
}

/// Options shared by the commands that open a store.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .customLong("store"),
    help: ArgumentHelp(
      "The store folder (default: $WEIGH_STORE, else $XDG_DATA_HOME/weigh, else ~/.local/share/weigh).",
      valueName: "dir"))
  var directory: String?

  @Flag(help: "Keep everything in memory; persist nothing.")
  var memory = false

  func location() -> StoreLocation { Self.location(directory: directory, memory: memory) }

  /// The store `--store` and `--memory` name, else the default one.
  static func location(directory: String?, memory: Bool) -> StoreLocation {
    if memory { return .memory }
    if let directory { return .directory(directory) }
    return StoreLocation.resolve(environment: ProcessInfo.processInfo.environment)
  }
}

enum ColorMode: String, CaseIterable {
  case auto, always, never

  /// Whether to colour stderr: `auto` only on a terminal, never with NO_COLOR or TERM=dumb.
  func resolved() -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      let environment = ProcessInfo.processInfo.environment
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return isatty(STDERR_FILENO) == 1
    }
  }
}

/// `weigh [FILE…] [-e COMMAND…]`: the REPL, or scripts run headless.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Run scripts, -e commands, stdin, or the REPL (the default).")

  @OptionGroup var store: StoreOptions

  @Option(
    name: .customShort("e"), help: ArgumentHelp("Run a command (repeatable).", valueName: "command")
  )
  var commands: [String] = []

  @Flag(help: "Run on after a failed command and report every failure.")
  var keepGoing = false

  @Flag(help: "Print each statement before its output.")
  var echo = false

  @Flag(help: "Keep weights far outside any body weight as written (as log … force does).")
  var force = false

  // Set by `ArgumentLayout` for shorthand (`weigh log 70kg`), not typed.
  @Flag(help: .hidden) var shorthand = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Start the virtual clock at an instant: 2026-01-01T08:00Z, today 07:30, yesterday, now, -3d.",
      valueName: "instant"))
  var clock: String?

  // Read as text and checked here, so `--seed -1` is a value to refuse, not a missing one.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seed the random generator of simulations and UUIDs (a whole number, 0 or more).",
      valueName: "n"))
  var seed: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The time zone for this session (IANA name).", valueName: "zone"))
  var tz: String?

  // Unit and colour are read as text and checked in `validate`, so the message is weigh's.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The display unit for this session: kg, lb or st.", valueName: "unit"))
  var unit: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How data is printed: text, json (JSON Lines) or csv; see docs/output.md.",
      valueName: "format"))
  var format: String = OutputFormat.text.rawValue

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Colour diagnostics: auto, always or never.", valueName: "when"))
  var color: String = ColorMode.auto.rawValue

  @Argument(
    help: ArgumentHelp("Scripts (.wcfg) to run; - reads one from stdin.", valueName: "file"))
  var files: [String] = []

  /// The parsed options as a plain value.
  var arguments: RunArguments {
    RunArguments(
      directory: store.directory, memory: store.memory, commands: commands,
      keepGoing: keepGoing, echo: echo, force: force, shorthand: shorthand, clock: clock,
      seed: seed, tz: tz,
      unit: unit, format: format, color: color, files: files)
  }

  func validate() throws { try arguments.validate() }

  func run() throws { try arguments.run() }
}

/// `weigh test [PATH…] [--update]`
struct Test: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run golden tests: each *.wcfg against its sibling .out file.")

  @Flag(help: "Write the .out files anew and list those that changed (such a run does not pass).")
  var update = false

  // Golden tests always run in a fresh in-memory store; `weigh --memory test` says no more.
  @Flag(help: .hidden)
  var memory = false

  @Argument(help: ArgumentHelp("Scripts or folders (default: Tests/golden).", valueName: "path"))
  var paths: [String] = []

  func run() throws {
    let runner = GoldenRunner()
    let scripts: [String]
    do {
      scripts = try runner.scripts(in: paths.isEmpty ? ["Tests/golden"] : paths)
    } catch {
      FileHandle.standardError.write(Data(DiagnosticRenderer().render(error).utf8))
      throw ExitCode(error.kind.exitStatus)
    }
    var passed = 0
    var failed = 0
    var updated: [String] = []
    for script in scripts {
      switch runner.check(scriptAt: script, update: update) {
      case .passed:
        passed += 1
        print("PASS \(TerminalText.escaped(script))")
      case .failed(let diff):
        failed += 1
        print("FAIL \(TerminalText.escaped(script))")
        print(TerminalText.escaped(diff), terminator: "")
      case .updated:
        updated.append(script)
        print("UPDATED \(TerminalText.escaped(script))")
      }
    }
    if !updated.isEmpty {
      print(
        "updated \(English.counted(updated.count, "expected output")); not counted as passing"
      )
    }
    print("\(passed) passed, \(failed) failed")
    if failed > 0 || !updated.isEmpty { throw ExitCode(ExitStatus.commandFailed) }
  }
}

/// `weigh check`
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Verify that a store can be read in full.")

  @OptionGroup var store: StoreOptions

  @Flag(
    help:
      "Make a damaged store readable from what is intact, keeping copies of its files in damaged/."
  )
  var repair = false

  func run() throws {
    if repair {
      let report = StoreCheck.repair(store.location())
      print(report.text, terminator: "")
      if report.status != .success { throw ExitCode(report.status) }
      return
    }
    let report = StoreCheck.run(store.location())
    print(TerminalText.escaped(report.text), terminator: "")
    if !report.ok { throw ExitCode(ExitStatus.unreadableStore) }
  }
}

extension ExitCode {
  /// The exit code for a status of weigh's one table.
  init(_ status: ExitStatus) { self.init(status.rawValue) }
}
