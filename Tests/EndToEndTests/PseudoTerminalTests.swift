import Glibc
import Testing

@Suite("PseudoTerminal")
struct PseudoTerminalTests {
  @Test func catSeesATerminalAndEndsOnControlD() throws {
    let terminal = try PseudoTerminal("/bin/cat")
    try terminal.send("hello pty\r")
    // The terminal echoes the typed line, then cat writes it back.
    let seen = try terminal.expect("hello pty\nhello pty\n")
    #expect(seen == "hello pty\nhello pty\n")
    try terminal.send(PseudoTerminal.controlD)
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test func controlCIsDeliveredAsSIGINTToTheForegroundProgram() throws {
    let terminal = try PseudoTerminal("/bin/cat")
    try terminal.send("partial")
    try terminal.expect("partial")
    try terminal.send(PseudoTerminal.controlC)
    #expect(try terminal.waitForExit() == .signaled(SIGINT))
  }

  @Test func standardStreamsAreTheTerminal() throws {
    let terminal = try PseudoTerminal(
      "/bin/sh", arguments: ["-c", "test -t 0 && test -t 1 && test -t 2 && echo all-tty; tty"])
    try terminal.expect("all-tty\n/dev/pts/")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test func reportsExitStatusAndStripsEscapes() throws {
    let script =
      #"printf '\033[?2004h\033[1mbold\033[0m \033]0;title\007plain\033[?2004l\n'; exit 3"#
    let terminal = try PseudoTerminal("/bin/sh", arguments: ["-c", script])
    #expect(try terminal.expect("plain\n") == "bold plain\n")
    #expect(try terminal.waitForExit() == .exited(3))
    #expect(terminal.transcript == "bold plain\n")
  }

  @Test func expectResumesAfterThePreviousMatch() throws {
    let terminal = try PseudoTerminal("/bin/sh", arguments: ["-c", "echo one; echo two; echo one"])
    #expect(try terminal.expect("one") == "one")
    #expect(try terminal.expect("one") == "\ntwo\none")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test func passesEnvironmentOnTopOfAPredictableBase() throws {
    let terminal = try PseudoTerminal(
      "/bin/sh", arguments: ["-c", #"echo "[$WEIGH_PTY_VALUE|$TERM|$INPUTRC]""#],
      environment: ["WEIGH_PTY_VALUE": "a b", "TERM": "xterm-256color"])
    try terminal.expect("[a b|xterm-256color|/dev/null]")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test(arguments: [(UInt16(80), UInt16(24)), (132, 50)])
  func setsTheWindowSize(columns: UInt16, rows: UInt16) throws {
    let terminal = try PseudoTerminal(
      "/bin/sh", arguments: ["-c", "stty size"], columns: columns, rows: rows)
    try terminal.expect("\(rows) \(columns)\n")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test func expectFailsWithWhatWasPrintedWhenTheProgramEnds() throws {
    let terminal = try PseudoTerminal("/bin/sh", arguments: ["-c", "echo something else; exit 4"])
    #expect {
      try terminal.expect("never printed")
    } throws: { error in
      guard
        case .endedBeforeOutput(let expected, let seen, let termination)? =
          error as? PseudoTerminal.Failure
      else { return false }
      return expected == "never printed" && seen == "something else\n"
        && termination == .exited(4)
    }
  }

  @Test func expectFailsAfterItsTimeoutWhileTheProgramRuns() throws {
    let terminal = try PseudoTerminal("/bin/cat")
    try terminal.send("typed\r")
    #expect {
      try terminal.expect("never printed", timeout: .milliseconds(300))
    } throws: { error in
      guard case .timedOut(_, let seen, let state)? = error as? PseudoTerminal.Failure else {
        return false
      }
      // cat sleeps, reading the terminal.
      return seen == "typed\ntyped\n" && state.hasPrefix("in state S")
    }
    terminal.signal(SIGTERM)
    #expect(try terminal.waitForExit() == .signaled(SIGTERM))
  }

  @Test func reportsAProgramThatCannotStart() {
    #expect(throws: PseudoTerminal.Failure.self) {
      _ = try PseudoTerminal("/nonexistent/weigh-pty-test")
    }
  }

  @Test(arguments: [
    ("\u{1B}[?2004hweigh> \u{1B}[?2004l\r\n", "weigh> \n"),
    ("\u{1B}[1;31mred\u{1B}[0m", "red"),
    ("\u{1B}]2;window title\u{1B}\\after", "after"),
    ("\u{1B}(Bascii\u{07}", "ascii"),
    ("caf\u{E9} 68,5\u{A0}kg", "caf\u{E9} 68,5\u{A0}kg"),
    ("cut \u{1B}[12", "cut "),
  ])
  func stripsEscapeSequences(raw: String, visible: String) {
    #expect(PseudoTerminal.strippingEscapes(raw) == visible)
  }

  @Test func findsBuiltProductsNextToTheTestBundle() {
    let path = PseudoTerminal.builtProduct(named: "weigh")
    #expect(path.hasSuffix("/weigh"))
    #expect(access(path, X_OK) == 0)
  }
}
