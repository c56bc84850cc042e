import Glibc

/// A program running on a new pseudo-terminal, driven the way a user at a keyboard would drive it.
///
/// The program gets the terminal as its standard input, output and error and as the
/// controlling terminal of a new session, so `isatty` is true, readline is active and
/// Ctrl-C sent as a byte becomes SIGINT. Typical use:
///
/// ```swift
/// let terminal = try PseudoTerminal(
///   PseudoTerminal.builtProduct(named: "weigh"), arguments: ["--memory"])
/// try terminal.expect("weigh> ")
/// try terminal.send("log 68.5kg\r")
/// let reply = try terminal.expect("weigh> ")
/// try terminal.send(PseudoTerminal.controlD)
/// #expect(try terminal.waitForExit() == .exited(0))
/// ```
///
/// Everything `expect` returns has ANSI escape sequences (colours, cursor movement,
/// bracketed-paste switches `ESC[?2004h`/`ESC[?2004l`), carriage returns and bells
/// removed, so `"\r\n"` reads as `"\n"`. Backspaces and other cursor motion done with
/// plain control characters are left as they are: match short, distinctive substrings.
/// Waits are deadlines, not measurements: a generous timeout only bounds a hung test.
final class PseudoTerminal {
  /// The byte a terminal sends for Ctrl-C (interrupt).
  static let controlC = "\u{03}"
  /// The byte a terminal sends for Ctrl-D (end of input on an empty line).
  static let controlD = "\u{04}"
  /// The byte a terminal sends for Ctrl-Z (suspend).
  static let controlZ = "\u{1A}"
  /// The byte a terminal sends for Tab (completion).
  static let tab = "\t"
  /// The byte a terminal sends for Return (accept the line).
  static let enter = "\r"
  /// The sequence an xterm-like terminal sends for the up arrow (previous history line).
  static let upArrow = "\u{1B}[A"
  /// The sequence an xterm-like terminal sends for the down arrow (next history line).
  static let downArrow = "\u{1B}[B"

  /// How a program under the terminal ended.
  enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It called exit with this status.
    case exited(Int32)
    /// A signal with this number ended it.
    case signaled(Int32)

    var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signaled(let signal): "killed by signal \(signal)"
      }
    }
  }

  /// Why driving the terminal failed; the description shows what the program had printed.
  enum Failure: Error, CustomStringConvertible {
    /// The pseudo-terminal could not be set up or the program could not be started.
    case cannotStart(String)
    /// `expect` waited its whole timeout without seeing the text.
    /// `state` is the program's scheduler state and kernel wait channel at that moment.
    case timedOut(expected: String, seen: String, state: String)
    /// The program ended before printing the text `expect` waited for.
    case endedBeforeOutput(expected: String, seen: String, termination: Termination)
    /// `waitForExit` waited its whole timeout and the program was still running.
    case stillRunning(seen: String)
    /// Writing to the terminal failed.
    case cannotSend(String)

    var description: String {
      switch self {
      case .cannotStart(let reason):
        "cannot start the program on a pseudo-terminal: \(reason)"
      case .timedOut(let expected, let seen, let state):
        "timed out waiting for \(expected.debugDescription); the program printed \(seen.debugDescription); it is \(state)"
      case .endedBeforeOutput(let expected, let seen, let termination):
        "the program \(termination) before printing \(expected.debugDescription); it printed \(seen.debugDescription)"
      case .stillRunning(let seen):
        "the program is still running; it printed \(seen.debugDescription)"
      case .cannotSend(let reason):
        "cannot write to the pseudo-terminal: \(reason)"
      }
    }
  }

  /// The process id of the program.
  let processID: pid_t

  private let master: Int32
  // Held open so that reading the master never fails with EIO before the child opens its side.
  private let slave: Int32
  private var raw: [UInt8] = []
  // How far into the stripped output earlier `expect` calls have consumed.
  private var consumed = 0
  private var termination: Termination?

  /// Starts `executable` (a path, not looked up in PATH) with `arguments` on a new
  /// `columns`×`rows` terminal.
  ///
  /// The environment is small and predictable: `PATH` and `HOME` from this process,
  /// `TERM=xterm`, `LANG=C.UTF-8`, `LC_ALL=C.UTF-8` and `INPUTRC=/dev/null` (so a
  /// developer's `~/.inputrc` cannot change key bindings), then `environment` on top.
  init(
    _ executable: String,
    arguments: [String] = [],
    environment: [String: String] = [:],
    columns: UInt16 = 80,
    rows: UInt16 = 24
  ) throws {
    let pty = try PTYFunctions()
    // Close-on-exec from the start: tests run in parallel, and a program another test starts
    // between opening and a later fcntl would keep this terminal's master open.
    master = Self.movedHigh(pty.openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC))
    guard master >= 0 else { throw Failure.cannotStart("posix_openpt: \(Self.lastError())") }
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    var name = [CChar](repeating: 0, count: 128)
    guard pty.grant(master) == 0, pty.unlock(master) == 0,
      pty.slaveName(master, &name, name.count) == 0
    else {
      close(master)
      throw Failure.cannotStart("grantpt/unlockpt/ptsname_r: \(Self.lastError())")
    }
    let slavePath = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    slave = Self.movedHigh(open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC))
    guard slave >= 0 else {
      close(master)
      throw Failure.cannotStart("open \(slavePath): \(Self.lastError())")
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Opened after the child's setsid and without O_NOCTTY, the terminal becomes the new
    // session's controlling terminal, so Ctrl-C and Ctrl-Z turn into signals.
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // glibc's POSIX_SPAWN_SETSID (0x80, glibc 2.26+) is hidden behind _GNU_SOURCE, which Swift's
    // Glibc module does not define.
    let setSessionID: Int32 = 0x80
    posix_spawnattr_setflags(
      &attributes, Int16(setSessionID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    // A test runner started in the background inherits SIGINT ignored; the program must not.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGHUP, SIGTERM, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    var variables = [
      "PATH": Self.inherited("PATH") ?? "/usr/bin:/bin",
      "TERM": "xterm",
      "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8",
      "INPUTRC": "/dev/null",
    ]
    variables["HOME"] = Self.inherited("HOME")
    variables.merge(environment) { _, new in new }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }

    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      close(master)
      close(slave)
      throw Failure.cannotStart("\(executable): \(String(cString: strerror(status)))")
    }
    processID = pid
  }

  deinit {
    if termination == nil {
      kill(processID, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(processID, &status, 0)
    }
    close(slave)
    close(master)
  }

  /// Types `text` into the terminal, as bytes (UTF-8): use `"\r"` for Return and the
  /// static constants for control keys.
  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if count > 0 {
        written += count
      } else if count < 0, errno != EAGAIN, errno != EINTR {
        throw Failure.cannotSend(Self.lastError())
      } else {
        // The terminal's input queue is full: let the program's output drain so it can read.
        pump(waitingAtMost: 10)
      }
    }
  }

  /// Waits until `text` appears in the output and returns everything printed since the
  /// previous `expect` up to and including `text`; the next call starts after it.
  ///
  /// Throws `Failure.timedOut` or `Failure.endedBeforeOutput`, whose description shows what was printed.
  @discardableResult
  func expect(_ text: String, timeout: Duration = .seconds(60)) throws -> String {
    let needle = Array(text.utf8)
    let deadline = ContinuousClock.now + timeout
    while true {
      let visible = Self.strippingEscapes(raw)
      if let range = Self.firstRange(of: needle, in: visible, from: consumed) {
        let seen = String(decoding: visible[consumed..<range.upperBound], as: UTF8.self)
        consumed = range.upperBound
        return seen
      }
      let unread = String(decoding: visible[consumed...], as: UTF8.self)
      if let termination, !pump(waitingAtMost: 0) {
        throw Failure.endedBeforeOutput(expected: text, seen: unread, termination: termination)
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        // A last look, in case this thread was not scheduled while the program printed.
        if pump(waitingAtMost: 0) { continue }
        // A master that is no terminal any more was closed under this test by other code.
        let masterNote =
          isatty(master) == 1 ? "" : "; this test's master descriptor is no longer a terminal"
        throw Failure.timedOut(
          expected: text, seen: unread,
          state: processState() + masterNote + "; \(raw.count) bytes read from the terminal: "
            + String(decoding: raw.suffix(1_024), as: UTF8.self).debugDescription)
      }
      if !pump(waitingAtMost: min(100, Self.milliseconds(remaining))) {
        _ = reap(blocking: false)
      }
    }
  }

  /// Reads and drops output until none has arrived for `quiet`: the next `expect` starts
  /// after it.
  func skipOutput(quietFor quiet: Duration) {
    while pump(waitingAtMost: Self.milliseconds(quiet)) {}
    consumed = Self.strippingEscapes(raw).count
  }

  /// Everything the program has printed so far, escapes removed, including text earlier
  /// `expect` calls consumed.
  var transcript: String {
    String(decoding: Self.strippingEscapes(raw), as: UTF8.self)
  }

  /// Reads output until the program ends and returns how it ended.
  ///
  /// Throws `Failure.stillRunning` if it has not ended within `timeout`.
  func waitForExit(timeout: Duration = .seconds(30)) throws -> Termination {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let termination = reap(blocking: false) {
        while pump(waitingAtMost: 0) {}
        return termination
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        throw Failure.stillRunning(
          seen: String(decoding: Self.strippingEscapes(raw)[consumed...], as: UTF8.self))
      }
      pump(waitingAtMost: min(50, Self.milliseconds(remaining)))
    }
  }

  /// Sends `signal` to the program's process group, as the terminal driver would.
  func signal(_ signal: Int32) {
    kill(-processID, signal)
  }

  /// The path of an executable SwiftPM built next to this test bundle, such as `"weigh"`.
  static func builtProduct(named name: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let executable =
      length > 0
      ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : CommandLine.arguments[0]
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return directory + "/" + name
  }

  /// Removes ANSI escape sequences, carriage returns and bells from terminal output.
  static func strippingEscapes(_ text: String) -> String {
    String(decoding: strippingEscapes(Array(text.utf8)), as: UTF8.self)
  }

  /// Byte-level `strippingEscapes`; an unfinished sequence at the end is dropped, so a
  /// later call over more bytes extends rather than rewrites the result.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  static func strippingEscapes(_ bytes: [UInt8]) -> [UInt8] {
    let escape: UInt8 = 0x1B
    let bell: UInt8 = 0x07
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0D || byte == bell {
        index += 1
        continue
      }
      guard byte == escape else {
        output.append(byte)
        index += 1
        continue
      }
      guard index + 1 < bytes.count else { break }
      let kind = bytes[index + 1]
      var end = index + 2
      switch kind {
      case UInt8(ascii: "["):
        // CSI: parameter and intermediate bytes (0x20...0x3F), then one final byte (0x40...0x7E).
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        end += 1
      case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"),
        UInt8(ascii: "_"):
        // String sequences end with BEL (OSC only) or with ESC \.
        while end < bytes.count, bytes[end] != bell, bytes[end] != escape { end += 1 }
        end += end < bytes.count && bytes[end] == escape ? 2 : 1
      case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"):
        end += 1
      default:
        break
      }
      guard end <= bytes.count else { break }
      index = end
    }
    return output
  }

  /// Reads whatever output is available within `milliseconds`; returns whether any arrived.
  @discardableResult
  private func pump(waitingAtMost milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 4096)
    var any = false
    while true {
      let count = read(master, &chunk, chunk.count)
      guard count > 0 else { break }
      raw.append(contentsOf: chunk[..<count])
      any = true
    }
    return any
  }

  /// `descriptor` moved to a number of 600 or more (close-on-exec), the original closed.
  ///
  /// Twice a REPL test saw nothing of a program that had printed its prompt and was waiting
  /// for input, as if the master had been closed under it: code elsewhere in the test
  /// process that closes a descriptor twice (Foundation's `Process` and `Pipe` on Linux are
  /// known to, under concurrency) closes whatever reused that low number. The numbers
  /// this process uses otherwise stay far below 600.
  private static func movedHigh(_ descriptor: Int32) -> Int32 {
    guard descriptor >= 0 else { return descriptor }
    let high = fcntl(descriptor, F_DUPFD_CLOEXEC, 600)
    guard high >= 0 else { return descriptor }
    close(descriptor)
    return high
  }

  /// The program's state as the kernel sees it, for a timeout's message: the state letter of
  /// /proc/PID/stat (R running, S sleeping, D in I/O, T stopped, Z ended) and the kernel
  /// function it waits in (/proc/PID/wchan), e.g. `"S in do_sys_poll"`.
  private func processState() -> String {
    func read(_ name: String) -> String? {
      guard let file = fopen("/proc/\(processID)/\(name)", "r") else { return nil }
      defer { fclose(file) }
      var buffer = [CChar](repeating: 0, count: 1024)
      let count = fread(&buffer, 1, buffer.count - 1, file)
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    guard let stat = read("stat") else { return "not running" }
    // "PID (COMMAND) STATE …": the command may hold spaces and parentheses, the state follows the last ")".
    let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
    let channel = read("wchan").flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
    return "in state \(state)" + (channel.map { " waiting in \($0)" } ?? "")
  }

  /// Collects the program's exit status if it has ended.
  private func reap(blocking: Bool) -> Termination? {
    if let termination { return termination }
    var status: Int32 = 0
    guard waitpid(processID, &status, blocking ? 0 : WNOHANG) == processID else { return nil }
    // WIFEXITED and friends are macros Swift cannot import; this is their glibc definition.
    let signal = status & 0x7F
    termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    return termination
  }

  private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int)
    -> Range<Int>?
  {
    guard !needle.isEmpty else { return start..<start }
    guard haystack.count - start >= needle.count else { return nil }
    for offset in start...(haystack.count - needle.count)
    where haystack[offset..<offset + needle.count].elementsEqual(needle) {
      return offset..<offset + needle.count
    }
    return nil
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }

  private static func inherited(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  private static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

/// glibc's pseudo-terminal functions, which Swift's Glibc module hides behind `_XOPEN_SOURCE`.
///
/// Looking them up by name keeps the harness free of per-architecture ioctl numbers.
private struct PTYFunctions {
  let openMaster: @convention(c) (Int32) -> Int32
  let grant: @convention(c) (Int32) -> Int32
  let unlock: @convention(c) (Int32) -> Int32
  let slaveName: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

  init() throws {
    guard let libc = dlopen(nil, RTLD_NOW) else {
      throw PseudoTerminal.Failure.cannotStart("dlopen of the running program failed")
    }
    func find(_ name: String) throws -> UnsafeMutableRawPointer {
      guard let symbol = dlsym(libc, name) else {
        throw PseudoTerminal.Failure.cannotStart("the C library has no \(name)")
      }
      return symbol
    }
    openMaster = unsafeBitCast(try find("posix_openpt"), to: (@convention(c) (Int32) -> Int32).self)
    grant = unsafeBitCast(try find("grantpt"), to: (@convention(c) (Int32) -> Int32).self)
    unlock = unsafeBitCast(try find("unlockpt"), to: (@convention(c) (Int32) -> Int32).self)
    slaveName = unsafeBitCast(
      try find("ptsname_r"),
      to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
  }
}
