import Foundation
import Testing

/// The REPL in a real pseudo-terminal: readline, prompts, completion, history, keys.
/// Serialized: two of four CI runs on 2026-11-26 found one of these REPLs without its first
/// prompt while the others ran beside it (374 bytes read each time); one at a time, they
/// do not share the machine's pseudo-terminals and scheduling with each other.
@Suite(.serialized) struct ReplTests {
  func start(history: String) throws -> PseudoTerminal {
    try PseudoTerminal(
      PseudoTerminal.builtProduct(named: "weigh"),
      arguments: ["--memory", "--clock", "2026-01-01T08:00Z", "--tz", "UTC"],
      environment: ["WEIGH_HISTORY": history, "NO_COLOR": "1"])
  }

  /// Waits for the REPL's first prompt. When none is read within 20 s, asks readline to
  /// redraw the line (Ctrl-L, which changes nothing else), reads the prompt it draws and
  /// skips anything after it. Twice in CI under heavy load a REPL was found waiting for
  /// input, its first prompt never read by the test (see `PseudoTerminal.Failure.timedOut`'s
  /// state); a REPL that never prompts still fails here.
  static func firstPrompt(_ repl: PseudoTerminal) throws {
    do {
      try repl.expect("weigh> ", timeout: .seconds(20))
    } catch PseudoTerminal.Failure.timedOut {
      try repl.send("\u{0C}")
      try repl.expect("weigh> ")
      repl.skipOutput(quietFor: .milliseconds(500))
    }
  }

  @Test func promptCommandsErrorsAndCtrlD() throws {
    let history = WeighProcess.temporaryDirectory() + "/history"
    let repl = try start(history: history)
    try Self.firstPrompt(repl)
    try repl.send("log 68.5kg\r")
    #expect(try repl.expect("weigh> ").contains("#1 2026-01-01 08:00 68.5 kg"))
    try repl.send("log heavy\r")
    let error = try repl.expect("weigh> ")
    #expect(error.contains("^^^^^"))
    #expect(error.contains("error: expected a weight such as 68.5kg, got \"heavy\""))
    try repl.send("expect entries == 1\r")
    try repl.expect("weigh> ")
    try repl.send(PseudoTerminal.controlD)
    #expect(try repl.waitForExit() == .exited(0))
    let saved = try String(contentsOfFile: history, encoding: .utf8)
    #expect(saved.contains("log 68.5kg"))
    #expect(saved.contains("expect entries == 1"))
  }

  @Test func continuationPromptInsideABlock() throws {
    let repl = try start(history: "")
    try Self.firstPrompt(repl)
    try repl.send("repeat 2 {\r")
    try repl.expect("...> ")
    try repl.send("echo inside\r")
    try repl.expect("...> ")
    try repl.send("}\r")
    let output = try repl.expect("weigh> ")
    #expect(output.components(separatedBy: "inside\n").count == 3)
    try repl.send("quit\r")
    #expect(try repl.waitForExit() == .exited(0))
  }

  @Test func tabCompletesCommandsAndCtrlCDropsTheLine() throws {
    let repl = try start(history: "")
    try Self.firstPrompt(repl)
    try repl.send("sett\t")
    try repl.expect("settings ")
    try repl.send("\r")
    #expect(try repl.expect("weigh> ").contains("daily"))
    try repl.send("log 99kg half typed")
    try repl.send(PseudoTerminal.controlC)
    try repl.expect("weigh> ")
    try repl.send("expect entries == 0\r")
    let after = try repl.expect("weigh> ")
    #expect(!after.contains("expect failed"))
    try repl.send(PseudoTerminal.controlD)
    #expect(try repl.waitForExit() == .exited(0))
  }

  @Test func tabListsEntriesInNumericOrderWithDateAndWeight() throws {
    let repl = try start(history: "")
    try Self.firstPrompt(repl)
    for day in 1...10 {
      try repl.send("log \(60 + day)kg at 2025-12-\(day < 10 ? "0" : "")\(day) 07:00\r")
      try repl.expect("weigh> ")
    }
    try repl.send("delete \t\t")
    let listed = try repl.expect("last  #10  2025-12-10 07:00  70.0 kg")
    let second = try #require(listed.range(of: "#2    2025-12-02 07:00  62.0 kg"))
    let tenth = try #require(listed.range(of: "#10   2025-12-10 07:00  70.0 kg"))
    #expect(second.lowerBound < tenth.lowerBound)
    try repl.send(PseudoTerminal.controlC)
    try repl.expect("weigh> ")
    try repl.send("delete last \t\t")
    try repl.send("\r")
    // Nothing was offered after the entry, so the line ran as typed.
    try repl.expect("deleted #10 2025-12-10 07:00 70.0 kg")
    try repl.expect("weigh> ")
    try repl.send(PseudoTerminal.controlD)
    #expect(try repl.waitForExit() == .exited(0))
  }

  @Test func historyIsRecalledInTheNextSession() throws {
    let history = WeighProcess.temporaryDirectory() + "/history"
    let first = try start(history: history)
    try first.expect("weigh> ")
    try first.send("echo remembered\r")
    try first.expect("weigh> ")
    try first.send(PseudoTerminal.controlD)
    _ = try first.waitForExit()
    let second = try start(history: history)
    try second.expect("weigh> ")
    try second.send(PseudoTerminal.upArrow + "\r")
    #expect(try second.expect("weigh> ").contains("remembered"))
    try second.send(PseudoTerminal.controlD)
    _ = try second.waitForExit()
  }
}
