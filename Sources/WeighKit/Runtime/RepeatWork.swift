/// How much work `repeat` blocks ask for, within ``ScriptLimits/repeatSteps``: nested counts
/// multiply, so two lines can ask for a million million commands.
///
/// A block is measured before it runs: one too large is refused whole, at its count, and
/// nothing of it runs. What cannot be measured beforehand (an `include` inside a block) is
/// counted as it runs, and stops the outermost block once the limit is spent.
struct RepeatWork {
  /// Steps left for the outermost block that is running.
  var remaining: Int
  /// The outermost block's count, where an error points.
  var header: SourceSpan
  /// Once the steps are spent: whether the session goes on after the error (what `fail`
  /// answered); every block and command still inside returns this at once.
  var spent: Bool?

  /// The steps `statements` take: one per command and one per pass of a block over its
  /// body; a count that cannot be read counts as none (it fails when it is reached).
  /// Saturates at `Int.max`.
  static func steps(of statements: [Statement]) -> Int {
    var total = 0
    for statement in statements {
      switch statement {
      case .line, .invalid: total = saturated(total.addingReportingOverflow(1))
      case .block(_, let tokens, let body):
        let pass = saturated(steps(of: body).addingReportingOverflow(1))
        let block = saturated(count(tokens).multipliedReportingOverflow(by: pass))
        total = saturated(total.addingReportingOverflow(block))
      }
    }
    return total
  }

  private static func saturated(_ result: (partialValue: Int, overflow: Bool)) -> Int {
    result.overflow ? Int.max : result.partialValue
  }

  /// The repeat count a block header's tokens (`repeat`, count, `{`) give; 0 when unreadable.
  static func count(_ tokens: [Token]) -> Int {
    guard tokens.count > 1 else { return 0 }
    // checked: parses text, nil when out of range
    return Int(tokens[1].text).map { max(0, $0) } ?? 0
  }

  /// The error for a block that asks for `steps`, more than the limit.
  static func tooMuch(_ steps: Int, at span: SourceSpan) -> Diagnostic {
    let asked = steps == Int.max ? "more than \(Int.max.grouped)" : steps.grouped
    return Diagnostic(
      "this repeat asks for \(asked) steps (each command, and each pass through a block), "
        + "more than the \(ScriptLimits.repeatSteps.grouped) one block may take; lower its "
        + "counts (nothing of the block runs)", at: span)
  }

  /// The error for a block whose included scripts used up the limit while it ran.
  static func spentError(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "this repeat has taken \(ScriptLimits.repeatSteps.grouped) steps (each command, and "
        + "each pass through a block, its includes' too), the most one block may take; lower "
        + "its counts (the rest of the block is skipped)", at: span)
  }
}

extension Int {
  /// `1,000,000`: digits grouped by threes, whatever the locale.
  fileprivate var grouped: String {
    let digits = String(self.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return (self < 0 ? "-" : "") + grouped
  }
}
