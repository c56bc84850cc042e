/// A text chart of daily weights and the trend line, for `chart` in a terminal.
///
/// Weights are dots (`•`, or `*` in ASCII); the trend is a braille line (or `-`, `|` in ASCII).
/// The y-axis is labelled in the display unit, the x-axis with the first and last dates.
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

  /// A chart of `points`.
  public init(
    points: [TrendPoint], unit: DisplayUnit, width: Int = 72, height: Int = 12,
    style: Style = .unicode
  ) {
    self.points = points
    self.unit = unit
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
    let bounds = ChartScale.paddedBounds(
      trend + weights.map(\.value), minimumSpan: unit.mass.fromKilograms(1))
    let rowLabels = (0..<height).map { row in
      // Label each row with the value at its middle.
      let fraction = (Double(row) + 0.5) / Double(height)
      return DisplayUnit.formatNumber(
        bounds.high - fraction * (bounds.high - bounds.low), decimals: 1)
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
      return Int(rounding: fraction * Double(pixelsHigh - 1), clampedTo: 0...max(pixelsHigh - 1, 0))
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
    let mark: Character = style == .unicode ? "•" : "*"
    for weight in weights {
      cells[pixelY(weight.value) / dotsY][pixelX(weight.day) / dotsX] = mark
    }
    let axis: Character = style == .unicode ? "┤" : "|"
    var lines = [
      style == .unicode
        ? "• weight  ⠒ trend  (\(unit.rawValue))" : "* weight  - trend  (\(unit.rawValue))"
    ]
    for row in 0..<height {
      let label = String(repeating: " ", count: labelWidth - rowLabels[row].count) + rowLabels[row]
      lines.append(Self.trimmed(label + " " + String(axis) + String(cells[row])))
    }
    let corner = style == .unicode ? "└" : "+"
    let rule = style == .unicode ? "─" : "-"
    lines.append(
      String(repeating: " ", count: labelWidth + 1) + corner
        + String(repeating: rule, count: plotWidth))
    let first = firstDay.description
    let last = lastDay.description
    var dateLine = String(repeating: " ", count: labelWidth + 2) + first
    let gap = plotWidth - first.count - last.count
    if firstDay != lastDay, gap >= 1 {
      dateLine += String(repeating: " ", count: gap) + last
    }
    lines.append(dateLine)
    return lines
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
