import WeighKit

/// Puts weigh's arguments in the order swift-argument-parser reads them, so that options may
/// stand before or after a subcommand (`weigh --store S check`), and turns shorthand
/// (`weigh log 70kg`, `weigh list last 5`) into one `-e` command.
enum ArgumentLayout {
  /// The subcommands, which swift-argument-parser needs first.
  static let subcommands: Set<String> = ["run", "test", "check"]

  /// Every subcommand's name, as swift-argument-parser matches a first argument.
  static let subcommandNames: Set<String> = [
    "run", "test", "check", "help", "completion", "complete",
  ]

  /// The options that take a value (`--store S`, also written `--store=S`).
  static let valued: Set<String> = [
    "--store", "-e", "--clock", "--seed", "--tz", "--unit", "--format", "--color",
  ]

  /// The flags of a run, which may follow a shorthand command (`weigh log 70g --force`).
  static let runFlags: Set<String> = ["--memory", "--keep-going", "--echo", "--force"]

  /// The hidden flag that marks an `-e` as shorthand, so its errors name the command line
  /// (`command line:1:5: error: …`) rather than an `-e` the user never typed.
  static let shorthandFlag = "--shorthand"

  /// `arguments` (without the program name) rearranged; `isFile` says whether a path names
  /// an existing file, which wins over a command of the same name.
  static func arrange(_ arguments: [String], isFile: (String) -> Bool) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" || argument == "-" || !argument.hasPrefix("-") { break }
      leading.append(argument)
      if valued.contains(argument), index + 1 < arguments.count {
        leading.append(arguments[index + 1])
        index += 1
      }
      index += 1
    }
    guard index < arguments.count else { return arguments }
    let first = arguments[index]
    let rest = arguments[(index + 1)...]
    if subcommands.contains(first) { return [first] + leading + rest }
    guard first != "help", !isFile(first), CommandTable.spec(named: first) != nil else {
      return arguments
    }
    // Shorthand: what follows is the command's, except weigh's own options (an `-e` after
    // it runs after it, as written).
    var options: [String] = []
    var words = [first]
    var position = index + 1
    while position < arguments.count {
      let argument = arguments[position]
      if valued.contains(argument), position + 1 < arguments.count {
        options += [argument, arguments[position + 1]]
        position += 2
        continue
      }
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      if runFlags.contains(argument) || (argument.contains("=") && valued.contains(name)) {
        options.append(argument)
      } else {
        words.append(argument)
      }
      position += 1
    }
    return leading + [shorthandFlag, "-e", words.map(quoted).joined(separator: " ")] + options
  }

  /// An argument as a word of the language: quoted when the shell kept spaces or quotes in
  /// it (`note "after run"`), else as typed (`#3`, `70kg`, `;`).
  static func quoted(_ word: String) -> String {
    guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else {
      return word
    }
    return WeighKit.quoted(word)
  }

  /// The hint after `cannot read script NAME`: the command or subcommand NAME was likely
  /// meant to be, or how to write one.
  static func hint(forMissing name: String) -> String {
    let words = CommandTable.names + subcommands.sorted()
    if let guess = Suggestion.closest(to: name.lowercased(), among: words) {
      return "; did you mean the command \"weigh \(guess)\"?"
    }
    if !name.contains("/"), !name.contains(".") {
      return "; give a script such as tour.wcfg, or a command such as weigh log 70kg"
    }
    return ""
  }
}
