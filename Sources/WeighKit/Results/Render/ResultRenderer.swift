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
        return [SummaryJSON.line(of: report.summary)]
      }
      guard let table = DataTables.table(of: item) else {
        return TextRenderer.lines(of: item, in: context)
      }
      return context.format == .json
        ? JSONLinesRenderer.lines(of: table) : CSVRenderer.lines(of: table)
    }
  }

  /// Calls `body` with each line of `result`'s items, in order.
  ///
  /// - Complexity: a message or a changed entry, one line per command of a long script, is
  ///   passed on without building an array of lines.
  static func forEachLine(
    of result: CommandResult, in context: RenderContext, _ body: (String) -> Void
  ) {
    for item in result.items {
      switch (context.format, item) {
      case (_, .message(let text)): body(text)
      case (.text, .entryChange(let change)): body(TextRenderer.line(for: change, in: context))
      default: for line in lines(of: CommandResult(item), in: context) { body(line) }
      }
    }
  }

  /// The text of `result` as the `output` fact reads it: its lines joined, without the last
  /// newline.
  static func text(of result: CommandResult, in context: RenderContext) -> String {
    lines(of: result, in: context).joined(separator: "\n")
  }
}
