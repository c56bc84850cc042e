/// The limits on what a script may ask of the interpreter: beyond them it gets an error
/// naming the limit, never a crash (the parser and interpreter recurse on nesting).
public enum ScriptLimits {
  /// How deep `repeat` blocks may nest in one script.
  public static let repeatDepth = 64
  /// The most steps one outermost `repeat` block may take: each command run, and each pass
  /// through a block, nested blocks' and included scripts' included (nested counts multiply).
  public static let repeatSteps = 10_000_000
  /// How many `try` may stand in front of one command.
  public static let tryDepth = 8
  /// How deep `include` may nest.
  public static let includeDepth = 16
  /// The longest statement, in bytes, after joining `\` continuations.
  public static let statementBytes = 1 << 20
  /// The most tokens in one statement.
  public static let statementTokens = 10_000
  /// The largest script file `weigh FILE` and `include` read.
  public static let scriptBytes = 256 << 20
}
