/// The one place results become lines of output, in the session's format.
///
/// Data (entries, statistics, a trend, readings…) follows the format; prose (confirmations,
/// help, status lines) is text in every format.
enum ResultRenderer {
  /// The lines of `result`'s items, in order (warnings are diagnostics, rendered apart).
  static func lines(of result: CommandResult, in context: RenderContext) -> [String] {
    guard context.format != .text else { return TextRenderer.lines(of: result, in: context) }
    return result.items.flatMap { item -> [String] in
      if case .healthSummary(let report) = item, context.format == .json || report.json {
        // The object ViiRaa's web view reads, as `summary json` prints it.
        return [report.summary.json()]
      }
      guard let table = DataTables.table(of: item) else {
        return TextRenderer.lines(of: item, in: context)
      }
      return context.format == .json
        ? JSONLinesRenderer.lines(of: table) : CSVRenderer.lines(of: table)
    }
  }

  /// The text of `result` as the `output` fact reads it: its lines joined, without the last
  /// newline.
  static func text(of result: CommandResult, in context: RenderContext) -> String {
    lines(of: result, in: context).joined(separator: "\n")
  }
}
