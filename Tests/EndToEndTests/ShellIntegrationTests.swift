import Foundation
import Testing

/// Help, completion scripts, the man page and the version, from the built binary.
@Suite struct ShellIntegrationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test(arguments: ["log", "delete", "repeat", "set", ""])
  func weighHelpPrintsWhatHelpPrintsInASession(_ topic: String) throws {
    let outside = try WeighProcess.run(["help"] + (topic.isEmpty ? [] : [topic]))
    let inside = try WeighProcess.run(["--memory", "-e", "help \(topic)"])
    #expect(outside.status == 0)
    #expect(inside.status == 0)
    #expect(outside.standardOutput == inside.standardOutput)
    #expect(outside.standardOutput.contains(topic.isEmpty ? "help log" : "example: "))
  }

  @Test func helpAloneIsAShortIndex() throws {
    let index = try WeighProcess.run(["help"])
    #expect(index.standardOutput.split(separator: "\n").count <= 20)
    #expect(index.standardOutput.contains("the app's weight log: log, edit, delete"))
  }

  @Test func helpAllIsPrintedWhenStdoutIsNoTerminal() throws {
    // The pager is for terminals only; a pipe gets the text itself.
    let all = try WeighProcess.run(["help", "all"], environment: ["PAGER": "false"])
    #expect(all.status == 0)
    #expect(all.standardOutput.split(separator: "\n").count > 60)
  }

  @Test func anUnknownTopicIsAUsageError() throws {
    let result = try WeighProcess.run(["help", "lgo"])
    #expect(result.status == 64)
    #expect(result.standardError == "weigh: error: no command \"lgo\"; did you mean \"log\"?\n")
  }

  @Test func anUnknownTopicFarFromAnyNamesWeighHelp() throws {
    // On the command line the list is `weigh help`, not the language's `help`.
    let result = try WeighProcess.run(["help", "zzzz"])
    #expect(result.status == 64)
    #expect(
      result.standardError == "weigh: error: no command \"zzzz\"; type weigh help for the list\n")
  }

  @Test func helpOfASubcommandShowsItsOptions() throws {
    let result = try WeighProcess.run(["help", "test"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("--update"))
  }

  @Test func aMissingScriptSaysSoInOneLineWithThePath() throws {
    let folder = WeighProcess.temporaryDirectory()
    let result = try WeighProcess.run(["--memory", "missing.wcfg"], directory: folder)
    #expect(result.status == 66)
    #expect(result.standardError == "error: cannot read script missing.wcfg: no such file\n")
  }

  @Test func aMistypedScriptCreatesNoStore() throws {
    let folder = WeighProcess.temporaryDirectory()
    let store = folder + "/store"
    let result = try WeighProcess.run(
      ["lsit"], directory: folder, environment: ["WEIGH_STORE": store])
    #expect(result.status == 66)
    #expect(result.standardError.contains("did you mean the command \"weigh list\"?"))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test func anEntryLostToTheShellsCommentSaysToQuoteIt() throws {
    // `weigh delete #3` in a shell runs `weigh delete`: # starts a comment.
    let result = try WeighProcess.run(["--memory", "delete"])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "command line:1:7: error: expected an entry such as #12 or last, got nothing; a shell reads # as a comment: quote it, '#12'\n"
      ))
  }

  @Test func versionIsPrinted() throws {
    let result = try WeighProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScriptsNameSubcommandsOptionsAndCommands(_ shell: String) throws {
    let result = try WeighProcess.run(["completion", shell])
    #expect(result.status == 0)
    let script = result.standardOutput
    for word in [
      "test", "check", "completion", "store", "keep-going", "unit", "json", "trend", "delete",
      "weigh complete",
    ] {
      #expect(script.contains(word), "\(shell) script lacks \(word)")
    }
  }

  @Test func theBashScriptIsValidBash() throws {
    let script = try WeighProcess.run(["completion", "bash"]).standardOutput
    let path = WeighProcess.temporaryDirectory() + "/weigh.bash"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    let bash = Process()
    bash.executableURL = URL(fileURLWithPath: "/bin/bash")
    // Sourcing defines the function and registers it; COMP_* then drive one completion.
    bash.arguments = [
      "-c",
      "source \(path) && COMP_WORDS=(weigh --unit l) COMP_CWORD=2 && _weigh && echo \"${COMPREPLY[@]}\"",
    ]
    let pipe = Pipe()
    bash.standardOutput = pipe
    try bash.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    bash.waitUntilExit()
    #expect(bash.terminationStatus == 0)
    #expect(output == "lb\n")
  }

  /// `zsh -n` and `fish -n` parse a script without running it; run where those shells are.
  @Test(
    arguments: ["zsh", "fish"].filter { FileManager.default.fileExists(atPath: "/usr/bin/\($0)") })
  func theZshAndFishScriptsParse(_ shell: String) throws {
    let script = try WeighProcess.run(["completion", shell]).standardOutput
    let path = WeighProcess.temporaryDirectory() + "/weigh.\(shell)"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(shell)")
    process.arguments = ["-n", path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  @Test func anUnknownShellIsAUsageError() throws {
    let result = try WeighProcess.run(["completion", "tcsh"])
    #expect(result.status == 64)
  }

  @Test func completeOffersEntriesInNumericOrderForShorthand() throws {
    let store = WeighProcess.temporaryDirectory() + "/store"
    var lines: [String] = []
    for day in 1...11 {
      lines += ["-e", "log 70kg at 2025-12-\(String(format: "%02d", day)) 07:00"]
    }
    #expect(try WeighProcess.run(["--store", store] + lines).status == 0)
    let result = try WeighProcess.run(["complete", "--store", store, "--", "delete", "#1"])
    #expect(result.standardOutput == "#1\n#10\n#11\n")
    let next = try WeighProcess.run(["complete", "--store", store, "--", "delete", "last", ""])
    #expect(next.standardOutput == "")
    // The bash script passes the store on to weigh complete.
    let bash = Process()
    bash.executableURL = URL(fileURLWithPath: "/bin/bash")
    bash.arguments = [
      "-c",
      "source <(\"$0\" completion bash) && weigh() { \"$0\" \"$@\"; } && "
        + "COMP_WORDS=(weigh --store \"$1\" delete '#1') COMP_CWORD=4 && _weigh && echo \"${COMPREPLY[@]}\"",
      WeighProcess.executable, store,
    ]
    let pipe = Pipe()
    bash.standardOutput = pipe
    try bash.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    bash.waitUntilExit()
    // An unquoted # starts a comment in bash: the entries go in escaped.
    #expect(output == "\\#1 \\#10 \\#11\n")
  }

  /// zsh's and fish's scripts, loaded in the real shell where it is installed, offer an
  /// entry with its date and weight (zsh's compadd is a stand-in that prints what it gets).
  @Test(
    arguments: ["zsh", "fish"].filter { FileManager.default.fileExists(atPath: "/usr/bin/\($0)") })
  func zshAndFishCompleteEntriesWithTheirDetails(_ shell: String) throws {
    let folder = WeighProcess.temporaryDirectory()
    let store = folder + "/store"
    let lines = ["-e", "log 70.1kg at 2025-12-10 07:00", "-e", "log 70.2kg at 2025-12-11 07:00"]
    #expect(try WeighProcess.run(["--store", store] + lines).status == 0)
    // Each script gets weigh's path and the store as its arguments.
    let zsh = """
      compdef() { :; }; _files() { :; }
      compadd() {
        local d; while [[ $1 == -* && $1 != -- ]]; do
          case $1 in (-d) d=$2; shift 2 ;; (-V) shift 2 ;; (*) shift ;; esac
        done
        shift; print -rl -- "$@" ${d:+${(P)d}}
      }
      exe=$1; weigh() { "$exe" "$@"; }
      source <("$exe" completion zsh)
      words=(weigh --store "$2" delete '#1'); CURRENT=5; _weigh

      """
    let fish = """
      set -g exe $argv[1]
      function weigh; $exe $argv; end
      $exe completion fish | source
      complete -C "weigh --store $argv[2] delete \\#1"

      """
    let path = folder + "/complete.\(shell)"
    try (shell == "zsh" ? zsh : fish).write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(shell)")
    process.arguments = (shell == "zsh" ? ["-f"] : []) + [path, WeighProcess.executable, store]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(
      output
        == (shell == "zsh"
          ? "#1\n#1  2025-12-10 07:00  70.1 kg\n" : "#1\t2025-12-10 07:00  70.1 kg\n"))
  }

  @Test func theManPageIsCurrent() throws {
    let generated = try WeighProcess.run(["help", "--man"])
    #expect(generated.status == 0)
    let committed = try String(contentsOfFile: Self.root + "/docs/weigh.1", encoding: .utf8)
    #expect(
      generated.standardOutput == committed,
      "docs/weigh.1 is stale: run scripts/gen-man.sh")
    #expect(committed.contains(".SH COMMANDS"))
    #expect(committed.contains("\\fBlog <weight> [at <when>] [note <string>] [force]\\fR"))
  }
}
