import ArgumentParser
import Foundation
import LineEditing
import WeighKit

/// What `weigh` runs (the `run` subcommand, the default): the options as plain values, their
/// checks and the run itself. swift-argument-parser fills it through ``Run``; the common
/// invocations are read by ``fast(_:)`` instead.
struct RunArguments: Equatable {
  var directory: String?
  var memory = false
  var commands: [String] = []
  var keepGoing = false
  var echo = false
  var force = false
  /// The first `-e` is a shorthand command (`weigh log 70kg`): its errors say `command line`.
  var shorthand = false
  var clock: String?
  var seed: String?
  var tz: String?
  var unit: String?
  var format = OutputFormat.text.rawValue
  var color = ColorMode.auto.rawValue
  var files: [String] = []

  func validate() throws {
    if let seed, UInt64(seed) == nil || seed.first == "+" {  // checked: parses text
      throw ValidationError(
        "--seed takes a whole number from 0 to \(UInt64.max), such as 42; got '\(TerminalText.escaped(seed))'"
      )
    }
    if let unit, DisplayUnit(rawValue: unit.lowercased()) == nil {
      throw ValidationError(
        "--unit takes kg, lb or st; got '\(TerminalText.escaped(unit))'")
    }
    if OutputFormat(rawValue: format.lowercased()) == nil {
      throw ValidationError(
        "--format takes text, json or csv; got '\(TerminalText.escaped(format))'")
    }
    if ColorMode(rawValue: color.lowercased()) == nil {
      throw ValidationError(
        "--color takes auto, always or never; got '\(TerminalText.escaped(color))'")
    }
    if let tz, TimeZone(identifier: tz) == nil {
      throw ValidationError(
        "unknown time zone '\(TerminalText.escaped(tz))'; use an IANA name such as Europe/Berlin or UTC"
      )
    }
    if let clock {
      // Checked here for the exit status; the session reads it again in its own zone.
      let zone = ZonedClock(zone: TimeZone(identifier: tz ?? "UTC") ?? .gmt)
      do throws(Diagnostic) {
        _ = try InstantParser.parse(clock, clock: zone, now: Instant.seconds(of: Date()))
      } catch {
        throw ValidationError(
          "cannot read --clock '\(TerminalText.escaped(clock))': \(error.message)")
      }
    }
  }

  func run() throws {
    var options = SessionOptions()
    options.store = StoreOptions.location(directory: directory, memory: memory)
    options.keepGoing = keepGoing
    options.echo = echo
    options.force = force
    options.clockWords = clock
    if let seed, let value = UInt64(seed) { options.seed = value }  // checked: parses text
    options.timeZone = tz
    options.unit = unit.flatMap { DisplayUnit(rawValue: $0.lowercased()) }
    options.format = OutputFormat(rawValue: format.lowercased()) ?? .text
    options.color = (ColorMode(rawValue: color.lowercased()) ?? .auto).resolved()
    let interactive = files.isEmpty && commands.isEmpty && LineEditor.isInteractive
    options.interactive = interactive
    options.terminalColumns = LineEditor.terminalColumns()
    let output = StandardStreams()
    let renderer = DiagnosticRenderer(color: options.color)
    // A mistyped first script (`weigh tuor.wcfg`, `weigh lsit`) fails before the store is
    // opened: a first run would otherwise create an empty default store for nothing.
    if commands.isEmpty, let first = files.first, first != "-",
      !FileManager.default.fileExists(atPath: first)
    {
      do throws(Diagnostic) {
        _ = try Self.readScript(first)
      } catch {
        output.write(renderer.render(error), to: .standardError)
        output.flush()
        throw ExitCode(error.kind.exitStatus)
      }
    }
    let session: Session
    do {
      session = try Session(options: options, output: output)
    } catch {
      output.write(renderer.render(error), to: .standardError)
      output.flush()
      throw ExitCode(error.kind.exitStatus)
    }
    defer { session.close() }
    let here = FileManager.default.currentDirectoryPath
    if interactive {
      let editor = LineEditor(
        programName: "weigh",
        historyPath: History.path(environment: ProcessInfo.processInfo.environment),
        completer: { line, word in
          Completion.candidates(
            lineBeforeWord: String(line.dropLast(word.count)), word: word,
            data: session.completionData(directory: here)
          ).map { LineCompletion($0.word, detail: $0.detail) }
        })
      if let problem = editor.historyProblem {
        output.write(
          "weigh: warning: \(TerminalText.escaped(problem)); history is not kept\n",
          to: .standardError)
      }
      session.runInteractive(EditorReader(editor: editor), directory: here)
      output.flush()
      return
    }
    if !commands.isEmpty {
      session.run(
        lines: commands, display: shorthand ? ParseContext.commandLine : "-e", directory: here)
    }
    for file in files where session.exitStatus == .success || keepGoing {
      if file == "-" {
        let goesOn = session.run(
          byteLines: StandardInputLines(output: output), display: "<stdin>", directory: here)
        if !goesOn { break }
        continue
      }
      let text: String
      do throws(Diagnostic) {
        text = try Self.readScript(file)
      } catch {
        // The whole script is checked before any of it runs: nothing of a bad file is done.
        output.write(renderer.render(error), to: .standardError)
        output.flush()
        throw ExitCode(error.kind.exitStatus)
      }
      let directory = (file as NSString).deletingLastPathComponent
      if !session.run(script: text, display: file, directory: directory.isEmpty ? "." : directory) {
        break
      }
    }
    if files.isEmpty && commands.isEmpty {
      session.run(
        byteLines: StandardInputLines(output: output), display: "<stdin>", directory: here)
    }
    output.flush()
    if session.exitStatus != .success { throw ExitCode(session.exitStatus) }
  }

  /// The text of the script `file`; a missing one's error says what was perhaps meant.
  static func readScript(_ file: String) throws(Diagnostic) -> String {
    do throws(Diagnostic) {
      return try ScriptFile.read(file, shownAs: file, noun: "script")
    } catch {
      var error = error
      if !FileManager.default.fileExists(atPath: file) {
        error.message += ArgumentLayout.hint(forMissing: file)
      }
      throw error
    }
  }

  // MARK: Reading the common invocations without swift-argument-parser

  /// `arguments` (as ``ArgumentLayout`` arranged them) when they are a plain run: only the
  /// options of a run, each single-valued one at most once, values that do not look like
  /// options where swift-argument-parser would refuse them, and files. Anything else (a
  /// subcommand, `--help`, `--version`, an unknown option, `--`) is nil: the parser reads it.
  ///
  /// Why: swift-argument-parser spends most of a one-command process finding its
  /// properties by reflection: 15.7 M of the 25.2 M instructions of
  /// `weigh --memory -e "log 70kg"` (callgrind, release build, 2026-11-26); this reads the
  /// same arguments in a few thousand. `FastArgumentsTests` checks that both readings agree.
  static func fast(_ arguments: [String]) -> RunArguments? {
    var result = RunArguments()
    var seen: Set<String> = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "-" || !argument.hasPrefix("-") {
        // A subcommand's name is the parser's to place.
        if ArgumentLayout.subcommandNames.contains(argument) { return nil }
        result.files.append(argument)
        continue
      }
      var name = argument
      var value: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "--memory", "--keep-going", "--echo", "--force", ArgumentLayout.shorthandFlag:
        guard value == nil, seen.insert(name).inserted else { return nil }
        switch name {
        case "--memory": result.memory = true
        case "--keep-going": result.keepGoing = true
        case "--echo": result.echo = true
        case "--force": result.force = true
        default: result.shorthand = true
        }
        continue
      case "-e", "--store", "--clock", "--seed", "--tz", "--unit", "--format", "--color":
        break
      default:
        return nil
      }
      if value == nil {
        guard index < arguments.count else { return nil }
        value = arguments[index]
        index += 1
        // `-e` and `--store` take the next argument only when it is not an option.
        if name == "-e" || name == "--store", value!.hasPrefix("-") { return nil }
      }
      guard let value else { return nil }
      if name == "-e" {
        result.commands.append(value)
        continue
      }
      guard seen.insert(name).inserted else { return nil }
      switch name {
      case "--store": result.directory = value
      case "--clock": result.clock = value
      case "--seed": result.seed = value
      case "--tz": result.tz = value
      case "--unit": result.unit = value
      case "--format": result.format = value
      default: result.color = value
      }
    }
    return result
  }
}
