/// The results the facts of `expect` read: the last command's whole result (the `output`
/// fact), and the most recent result of the kinds that facts name (`range.*`, `glucose.*`).
///
/// `expect` and `include` leave it as it is, so several `expect` lines can read one result.
struct ResultMemory {
  /// The most recent command's result, and the unit and zone it was shown in.
  private(set) var last = CommandResult.empty
  private(set) var lastContext: RenderContext?
  /// The most recent `range week` result.
  private(set) var range: PregnancyRangeReport?
  /// The most recent `glucose` result.
  private(set) var glucose: GlucoseSummary?
  /// The most recent error's message (the `error` fact).
  var error = ""

  /// Remembers `result`, shown in `context`.
  mutating func remember(_ result: CommandResult, in context: RenderContext) {
    last = result
    lastContext = context
    for item in result.items {
      switch item {
      case .pregnancyRange(let report): range = report
      case .glucose(let report): glucose = report.summary
      default: continue
      }
    }
  }

  /// The last result as text, without its final newline.
  var output: String {
    guard let lastContext else { return "" }
    return ResultRenderer.text(of: last, in: lastContext)
  }
}
