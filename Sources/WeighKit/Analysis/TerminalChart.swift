/// A text chart of daily weights and the trend line, for `chart` in a terminal.
///
/// Weights are dots (`•`, or `*` in ASCII); the trend is a braille line (or `-`, `|` in ASCII);
/// a goal inside the plotted range is a dotted row (`┄`, or `.` in ASCII), one outside it an
/// arrow in the legend (`▼ goal 70.0`). Each row is labelled
/// with a round value in the display unit (a multiple of 1, 2 or 5 × 10ⁿ); the x-axis with the
/// first and last dates and, between them, month names for a long range or dates (`MM-DD`) for
/// a short one.
public struct TerminalChart: Sendable {
  /// The characters the chart may use.
  public enum Style: String, Sendable, CaseIterable {
    /// Braille dots for the trend (2×4 per character) and `•` for weights.
    case unicode
    /// Plain ASCII only.
    case ascii
  }

  /// The days to draw, oldest first (as from `Trend.points`).
  public var points: [TrendPoint]
  /// The unit of the axis labels.
  public var unit: DisplayUnit
  /// The total width in characters, labels included (at least 20).
  public var width: Int
  /// The height of the plot area in rows (at least 3), without the axis and date lines.
  public var height: Int
  /// Unicode or ASCII.
  public var style: Style
  /// A goal weight in kilograms, drawn as a dotted row when it lies inside the plotted range.
  public var goal: Double?

  /// A chart of `points`.
  public init(
    points: [TrendPoint], unit: DisplayUnit, width: Int = 72, height: Int = 12,
    style: Style = .unicode, goal: Double? = nil
  ) {
    self.points = points
    self.unit = unit
    self.goal = goal
    self.width = max(width, 20)
    self.height = max(height, 3)
    self.style = style
  }

  /// The chart as lines without trailing spaces: a legend, `height` plot rows, the x-axis and
  /// a date line.
  /// - Complexity: O(width · height + days).
  public func lines() -> [String] {
    guard let firstDay = points.first?.day, let lastDay = points.last?.day else {
      return ["no weights to chart"]
    }
    let trend = points.map { unit.mass.fromKilograms($0.trend) }
    let weights = points.filter { !$0.isInterpolated }.map {
      (day: $0.day, value: unit.mass.fromKilograms($0.kilograms))
    }
    let values = trend + weights.map(\.value)
    let rows = Self.rows(
      low: values.min() ?? 0, high: values.max() ?? 1, count: height,
      minimumSpan: unit.mass.fromKilograms(1))
    // Row r stands for the value top − r·step at its middle.
    let bounds = (
      low: rows.top - (Double(height) - 0.5) * rows.step, high: rows.top + rows.step / 2
    )
    let decimals = ChartScale.decimals(forStep: rows.step)
    let rowLabels = (0..<height).map { row in
      DisplayUnit.formatNumber(rows.top - Double(row) * rows.step, decimals: decimals)
    }
    let labelWidth = rowLabels.map(\.count).max() ?? 0
    let plotWidth = width - labelWidth - 2
    let span = max(firstDay.days(to: lastDay), 1)
    // Pixel grid: 2×4 dots per character in braille, one per character in ASCII.
    let (dotsX, dotsY) = style == .unicode ? (2, 4) : (1, 1)
    let pixelsWide = plotWidth * dotsX
    let pixelsHigh = height * dotsY
    func pixelX(_ day: CivilDate) -> Int {
      let position = Double(firstDay.days(to: day)) / Double(span) * Double(pixelsWide - 1)
      return Int(rounding: position, clampedTo: 0...max(pixelsWide - 1, 0))
    }
    func pixelY(_ value: Double) -> Int {
      let fraction = (bounds.high - value) / (bounds.high - bounds.low)
      let lastRow = max(pixelsHigh - 1, 0)
      return Int(rounding: fraction * Double(pixelsHigh) - 0.5, clampedTo: 0...lastRow)
    }
    var dots = Array(repeating: Array(repeating: false, count: pixelsWide), count: pixelsHigh)
    var previous: (x: Int, y: Int)?
    for (point, value) in zip(points, trend) {
      let current = (x: pixelX(point.day), y: pixelY(value))
      // Over a long span most days fall on the pixel of the day before: no segment to draw.
      if let previous, previous != current {
        for (x, y) in Self.segment(from: previous, to: current) { dots[y][x] = true }
      } else {
        dots[current.y][current.x] = true
      }
      previous = current
    }
    var cells = Array(repeating: Array(repeating: Character(" "), count: plotWidth), count: height)
    for row in 0..<height {
      for column in 0..<plotWidth {
        cells[row][column] = cell(dots: dots, row: row, column: column, dotsX: dotsX, dotsY: dotsY)
      }
    }
    var goalText = ""
    if let goal, (bounds.low...bounds.high).contains(unit.mass.fromKilograms(goal)) {
      let row = pixelY(unit.mass.fromKilograms(goal)) / dotsY
      let dash: Character = style == .unicode ? "┄" : "."
      for column in 0..<plotWidth where cells[row][column] == " " { cells[row][column] = dash }
      goalText =
        "  \(dash) goal \(DisplayUnit.formatNumber(unit.mass.fromKilograms(goal), decimals: 1))"
    } else if let goal {
      // Outside the plotted range the goal is named in the legend with an arrow toward it,
      // as the SVG writes it at its edge: a set goal never just disappears.
      let value = unit.mass.fromKilograms(goal)
      let arrow =
        value > bounds.high ? (style == .unicode ? "▲" : "^") : (style == .unicode ? "▼" : "v")
      goalText = "  \(arrow) goal \(DisplayUnit.formatNumber(value, decimals: 1))"
    }
    let mark: Character = style == .unicode ? "•" : "*"
    for weight in weights {
      cells[pixelY(weight.value) / dotsY][pixelX(weight.day) / dotsX] = mark
    }
    let axis: Character = style == .unicode ? "┤" : "|"
    var lines = [
      (style == .unicode ? "• weight  ⠒ trend" : "* weight  - trend") + goalText
        + "  (\(unit.rawValue))"
    ]
    for row in 0..<height {
      let label = String(repeating: " ", count: labelWidth - rowLabels[row].count) + rowLabels[row]
      lines.append(Self.trimmed(label + " " + String(axis) + String(cells[row])))
    }
    let corner = style == .unicode ? "└" : "+"
    let rule: Character = style == .unicode ? "─" : "-"
    let tick: Character = style == .unicode ? "┬" : "+"
    let offset = labelWidth + 2
    var ruleLine = Array(String(repeating: " ", count: labelWidth + 1) + corner)
    ruleLine += Array(repeating: rule, count: plotWidth)
    var dateLine = Array(repeating: Character(" "), count: offset + plotWidth)
    // The end dates first, then the ticks between them wherever they fit with two spaces around.
    var taken: [ClosedRange<Int>] = []
    func place(_ text: String, at column: Int) -> Bool {
      let range = column...(column + text.count - 1)
      guard column >= offset, range.upperBound < dateLine.count,
        !taken.contains(where: { $0.overlaps((range.lowerBound - 2)...(range.upperBound + 2)) })
      else { return false }
      dateLine.replaceSubrange(range, with: Array(text))
      taken.append(range)
      return true
    }
    _ = place(firstDay.description, at: offset)
    if firstDay != lastDay {
      _ = place(lastDay.description, at: offset + plotWidth - lastDay.description.count)
    }
    for (day, label) in Self.dateTicks(from: firstDay, to: lastDay, columns: plotWidth) {
      let column = offset + pixelX(day) / dotsX
      if place(label, at: column - label.count / 2) { ruleLine[column] = tick }
    }
    lines.append(String(ruleLine))
    lines.append(Self.trimmed(String(dateLine)))
    return lines
  }

  /// Row values for `count` rows: a nice step and the top row's value (a multiple of the step),
  /// covering `low...high` (widened to `minimumSpan`) with the data in the middle.
  static func rows(
    low: Double, high: Double, count: Int, minimumSpan: Double
  ) -> (top: Double, step: Double) {
    let middle = (low + high) / 2
    let half = max(high - low, minimumSpan) / 2
    let (low, high) = (middle - half, middle + half)
    let raw = (high - low) / Double(max(count - 1, 1))
    var magnitude = 1.0
    while magnitude * 10 <= raw { magnitude *= 10 }
    while magnitude > raw { magnitude /= 10 }
    for factor in [1.0, 2, 5, 10, 20, 50, 100] {
      let step = magnitude * factor
      let bottomIndex = (low / step).rounded(.down)
      let topIndex = (high / step).rounded(.up)
      let used = topIndex - bottomIndex
      guard used <= Double(count - 1) else { continue }
      // Spare rows go half above, half below.
      let spare = (Double(count - 1) - used) / 2
      return ((topIndex + spare.rounded(.down)) * step, step)
    }
    return (high, raw)
  }

  /// The labels between the ends of the x-axis: the first of each month (its name, or the year
  /// for January) beyond three months, else days a nice number apart (`MM-DD`).
  static func dateTicks(
    from first: CivilDate, to last: CivilDate, columns: Int
  ) -> [(CivilDate, String)] {
    let span = max(first.days(to: last), 1)
    let columnsPerDay = Double(columns) / Double(span)
    var ticks: [(CivilDate, String)] = []
    if span > 92 {
      let names = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
      ]
      let every = [1, 2, 3, 6, 12].first { Double($0) * 30.4 * columnsPerDay >= 7 } ?? 12
      var day = first.firstOfNextMonth
      while day < last {
        if (day.month - 1) % every == 0 {
          ticks.append((day, day.month == 1 ? String(day.year) : names[day.month - 1]))
        }
        day = day.firstOfNextMonth
      }
    } else {
      guard let every = [1, 2, 7, 14, 28].first(where: { Double($0) * columnsPerDay >= 9 }) else {
        return []
      }
      // Weekly ticks fall on Mondays; the others count from the first day.
      var day = every % 7 == 0 ? first.monday.adding(days: 7) : first.adding(days: every)
      while day < last {
        let text = day.description
        ticks.append((day, String(text.dropFirst(5))))
        day = day.adding(days: every)
      }
    }
    return ticks
  }

  private func cell(dots: [[Bool]], row: Int, column: Int, dotsX: Int, dotsY: Int) -> Character {
    if style == .ascii {
      guard dots[row][column] else { return " " }
      // A column with several trend rows set is a steep stretch.
      let above = row > 0 && dots[row - 1][column]
      let below = row + 1 < dots.count && dots[row + 1][column]
      return above || below ? "|" : "-"
    }
    // Braille dot numbering: left column 1, 2, 3, 7; right column 4, 5, 6, 8.
    let bits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
    var code: UInt32 = 0
    for dx in 0..<dotsX {
      for dy in 0..<dotsY where dots[row * dotsY + dy][column * dotsX + dx] {
        code |= bits[dx][dy]
      }
    }
    return code == 0 ? " " : Character(Unicode.Scalar(0x2800 + code)!)
  }

  /// The pixels of a straight line between two pixels, ends included (Bresenham).
  static func segment(from start: (x: Int, y: Int), to end: (x: Int, y: Int)) -> [(Int, Int)] {
    var x = start.x
    var y = start.y
    let dx = abs(end.x - x)
    let dy = -abs(end.y - y)
    let stepX = x < end.x ? 1 : -1
    let stepY = y < end.y ? 1 : -1
    var error = dx + dy
    var result: [(Int, Int)] = [(x, y)]
    while x != end.x || y != end.y {
      let doubled = 2 * error
      if doubled >= dy {
        error += dy
        x += stepX
      }
      if doubled <= dx {
        error += dx
        y += stepY
      }
      result.append((x, y))
    }
    return result
  }

  private static func trimmed(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}
