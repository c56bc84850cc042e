/// The one place results become lines of output, in the session's format.
///
/// Everything follows the format: in `json` and `csv` prose (confirmations, help, status
/// lines) is a row of one `message` column, so that standard readers can take the whole
/// output. Errors and warnings are diagnostics on stderr in every format.
enum ResultRenderer {
  /// The lines of `result`'s items, in order (warnings are diagnostics, rendered apart).
  static func lines(of result: CommandResult, in context: RenderContext) -> [String] {
    guard context.format != .text else { return TextRenderer.lines(of: result, in: context) }
    var lines: [String] = []
    var prose: [[DataValue]] = []
    func flushProse() {
      guard !prose.isEmpty else { return }
      lines += machineLines(of: DataTable(columns: ["message"], rows: prose), in: context)
      prose = []
    }
    for item in result.items {
      if case .healthSummary(let report) = item, context.format == .json || report.json {
        flushProse()
        // The object ViiRaa's web view reads, as `summary json` prints it.
        lines.append(SummaryJSON.line(of: report.summary))
        continue
      }
      switch item {
      case .message(let text):
        // Consecutive prose lines share one CSV header.
        prose.append([.text(text)])
      case .lines(let texts):
        prose += texts.map { [.text($0)] }
      default:
        flushProse()
        lines += machineLines(of: DataTables.table(of: item), in: context)
      }
    }
    flushProse()
    return lines
  }

  private static func machineLines(of table: DataTable, in context: RenderContext) -> [String] {
    context.format == .json ? JSONLinesRenderer.lines(of: table) : CSVRenderer.lines(of: table)
  }

  /// Calls `body` with each line of `result`'s items, in order.
  ///
  /// - Complexity: a message or a changed entry, one line per command of a long script, is
  ///   passed on without building an array of lines.
  static func forEachLine(
    of result: CommandResult, in context: RenderContext, _ body: (String) -> Void
  ) {
    guard context.format == .text else {
      for line in lines(of: result, in: context) { body(line) }
      return
    }
    for item in result.items {
      switch item {
      case .message(let text): body(text)
      case .entryChange(let change): body(TextRenderer.line(for: change, in: context))
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
