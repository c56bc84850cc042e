/// A standalone SVG chart of daily weights and the trend line, for `chart … to file.svg`.
///
/// Draws a title (and an accessible `<title>`/`<desc>`), axes with date ticks (months when the
/// range is long, the last day always labelled) and weight ticks in the display unit, the unit
/// label, one circle per weighed day with a grey sinker line to the trend (as TrendWeight draws
/// them), the trend as a polyline, and optionally a dashed goal line, a
/// dashed projection from the last trend point to the goal date, and a shaded band (the IOM
/// pregnancy range) given as per-day low/high weights. The weight axis fits the data; a goal far
/// outside it is drawn at the edge with an arrow and its value.
public struct SVGChart: Sendable {
  /// The per-day bounds of a shaded band, in kilograms.
  public struct BandDay: Equatable, Sendable {
    /// The day.
    public var day: CivilDate
    /// The lower bound in kilograms.
    public var low: Double
    /// The upper bound in kilograms.
    public var high: Double

    /// A band day.
    public init(day: CivilDate, low: Double, high: Double) {
      self.day = day
      self.low = low
      self.high = high
    }
  }

  /// The title at the top.
  public var title: String
  /// The days to draw, oldest first (as from `Trend.points`).
  public var points: [TrendPoint]
  /// The unit of the weight axis.
  public var unit: DisplayUnit
  /// A goal weight in kilograms to draw as a dashed line.
  public var goal: Double?
  /// The day the trend is projected to reach the goal (from `GoalProjection`), if it does.
  public var goalDay: CivilDate?
  /// A band to shade (e.g. the IOM range), oldest day first.
  public var band: [BandDay]
  /// The image width in pixels.
  public var width: Int
  /// The image height in pixels.
  public var height: Int

  /// A chart of `points`.
  public init(
    title: String, points: [TrendPoint], unit: DisplayUnit, goal: Double? = nil,
    goalDay: CivilDate? = nil, band: [BandDay] = [], width: Int = 800, height: Int = 480
  ) {
    self.title = title
    self.points = points
    self.unit = unit
    self.goal = goal
    self.goalDay = goal == nil ? nil : goalDay
    self.band = band
    self.width = max(width, 320)
    self.height = max(height, 240)
  }

  private struct Frame {
    var left = 72.0
    var right: Double
    var top = 56.0
    var bottom: Double
    var firstDay: CivilDate
    var span: Int
    var low: Double
    var high: Double

    func x(_ day: CivilDate) -> Double {
      left + Double(firstDay.days(to: day)) / Double(span) * (right - left)
    }

    func y(_ value: Double) -> Double {
      bottom - (value - low) / (high - low) * (bottom - top)
    }
  }

  /// The SVG document (UTF-8 text, no DTD).
  /// - Complexity: O(days + band days).
  public func document() -> String {
    let mass = unit.mass
    let allDays = points.map(\.day) + band.map(\.day)
    let firstDay = allDays.min() ?? CivilDate(daysSinceEpoch: 0)
    let lastDay = allDays.max() ?? firstDay
    // The date axis runs on to a goal date within half the charted span (three weeks at least);
    // a farther one leaves a sixth of the span for the projection's start.
    var axisEnd = lastDay
    if let goalDay, goalDay > lastDay, !points.isEmpty {
      let reach = max(firstDay.days(to: lastDay) / 2, 21)
      let gap = lastDay.days(to: goalDay)
      axisEnd = lastDay.adding(days: gap <= reach ? gap : reach / 3)
    }
    var values = points.flatMap {
      [mass.fromKilograms($0.trend), mass.fromKilograms($0.kilograms)]
    }
    values += band.flatMap { [mass.fromKilograms($0.low), mass.fromKilograms($0.high)] }
    let minimumSpan = unit.mass.fromKilograms(1)
    var bounds = ChartScale.paddedBounds(values, minimumSpan: minimumSpan)
    // The axis fits the data; a goal within half the data's span of it joins the axis, a
    // farther one is drawn at the edge with an arrow.
    if let goal {
      let value = mass.fromKilograms(goal)
      let reach = (bounds.high - bounds.low) / 2
      if values.isEmpty || (bounds.low - reach...bounds.high + reach).contains(value) {
        bounds = ChartScale.paddedBounds(values + [value], minimumSpan: minimumSpan)
      }
    }
    let frame = Frame(
      right: Double(width) - 24, bottom: Double(height) - 56, firstDay: firstDay,
      span: max(firstDay.days(to: axisEnd), 1), low: bounds.low, high: bounds.high)

    var svg: [String] = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        + "viewBox=\"0 0 \(width) \(height)\" font-family=\"sans-serif\" font-size=\"12\" "
        + "role=\"img\" aria-labelledby=\"chart-title chart-desc\">",
      "<title id=\"chart-title\">\(XMLText.escaped(title))</title>",
      "<desc id=\"chart-desc\">\(XMLText.escaped(summary))</desc>",
      "<defs><clipPath id=\"plot\"><rect x=\"\(Self.number(frame.left))\" "
        + "y=\"\(Self.number(frame.top))\" width=\"\(Self.number(frame.right - frame.left))\" "
        + "height=\"\(Self.number(frame.bottom - frame.top))\"/></clipPath></defs>",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
      "<text class=\"title\" x=\"\(Self.number(Double(width) / 2))\" y=\"28\" "
        + "text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\">\(XMLText.escaped(title))</text>",
    ]
    svg += bandElements(frame)
    svg += weightAxis(frame)
    svg += dateAxis(frame, lastDay: lastDay, axisEnd: axisEnd)
    svg.append(
      "<g class=\"axes\" stroke=\"#333333\" stroke-width=\"1\">"
        + "<line x1=\"\(Self.number(frame.left))\" y1=\"\(Self.number(frame.top))\" "
        + "x2=\"\(Self.number(frame.left))\" y2=\"\(Self.number(frame.bottom))\"/>"
        + "<line x1=\"\(Self.number(frame.left))\" y1=\"\(Self.number(frame.bottom))\" "
        + "x2=\"\(Self.number(frame.right))\" y2=\"\(Self.number(frame.bottom))\"/></g>")
    svg += goalElements(frame, axisEnd: axisEnd)
    svg += seriesElements(frame)
    svg += legend(frame)
    if points.isEmpty {
      svg.append(
        "<text class=\"empty\" x=\"\(Self.number((frame.left + frame.right) / 2))\" "
          + "y=\"\(Self.number((frame.top + frame.bottom) / 2))\" text-anchor=\"middle\" "
          + "fill=\"#666666\">no weights to chart</text>")
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
  }

  /// The chart in words, for `<desc>`: the days, the weights' range, the trend at the end, and
  /// the goal with its projected date.
  public var summary: String {
    guard let first = points.first, let last = points.last else { return "no weights to chart" }
    let weighed = points.filter { !$0.isInterpolated }.map(\.kilograms)
    var text = "\(weighed.count) weighed days from \(first.day) to \(last.day)"
    if let low = weighed.min(), let high = weighed.max() {
      text += "; weights from \(unit.format(kilograms: low)) to \(unit.format(kilograms: high))"
    }
    text +=
      "; trend \(unit.format(kilograms: first.trend)) to \(unit.format(kilograms: last.trend))"
    if let goal {
      text += "; goal \(unit.format(kilograms: goal))"
      if let goalDay { text += ", projected for \(goalDay)" }
    }
    if !band.isEmpty { text += "; shaded: the recommended range" }
    return text + "."
  }

  private func bandElements(_ frame: Frame) -> [String] {
    guard !band.isEmpty else { return [] }
    let mass = unit.mass
    let upper = band.map {
      "\(Self.number(frame.x($0.day))),\(Self.number(frame.y(mass.fromKilograms($0.high))))"
    }
    let lower = band.reversed().map {
      "\(Self.number(frame.x($0.day))),\(Self.number(frame.y(mass.fromKilograms($0.low))))"
    }
    return [
      "<polygon class=\"band\" points=\"\((upper + lower).joined(separator: " "))\" "
        + "fill=\"#2e9d5a\" fill-opacity=\"0.15\" stroke=\"#2e9d5a\" stroke-opacity=\"0.4\"/>"
    ]
  }

  private func weightAxis(_ frame: Frame) -> [String] {
    let step = ChartScale.niceStep(span: frame.high - frame.low, count: 6)
    let decimals = ChartScale.decimals(forStep: step)
    var lines = ["<g class=\"y-ticks\">"]
    for value in ChartScale.ticks(low: frame.low, high: frame.high, step: step) {
      let y = Self.number(frame.y(value))
      lines.append(
        "<line x1=\"\(Self.number(frame.left))\" y1=\"\(y)\" x2=\"\(Self.number(frame.right))\" "
          + "y2=\"\(y)\" stroke=\"#e4e4e4\"/>"
          + "<text x=\"\(Self.number(frame.left - 6))\" y=\"\(y)\" text-anchor=\"end\" "
          + "dominant-baseline=\"middle\">\(DisplayUnit.formatNumber(value, decimals: decimals))</text>"
      )
    }
    lines.append("</g>")
    let middle = Self.number((frame.top + frame.bottom) / 2)
    lines.append(
      "<text class=\"unit\" x=\"18\" y=\"\(middle)\" text-anchor=\"middle\" "
        + "transform=\"rotate(-90 18 \(middle))\">weight (\(unit.rawValue))</text>")
    return lines
  }

  private func dateAxis(_ frame: Frame, lastDay: CivilDate, axisEnd: CivilDate) -> [String] {
    // At most one tick label per 90 pixels: whole days or weeks for up to three months, the
    // first of every month (or every 2, 3, 6, 12 months) beyond.
    // checked: the frame is a few thousand points wide
    let maxTicks = max(Int((frame.right - frame.left) / 90), 2)
    var ticks: [(day: CivilDate, label: String)] = []
    if frame.span <= 92 {
      var every = 1
      for candidate in [1, 2, 7, 14, 28] {
        every = candidate
        if frame.span / candidate < maxTicks { break }
      }
      var day = frame.firstDay
      while day <= axisEnd {
        ticks.append((day, day.description))
        day = day.adding(days: every)
      }
    } else {
      let months = frame.span / 30
      let every = [1, 2, 3, 6, 12].first { months / $0 < maxTicks } ?? 12
      var day = frame.firstDay.day == 1 ? frame.firstDay : frame.firstDay.firstOfNextMonth
      while day <= axisEnd {
        if (day.month - 1) % every == 0 {
          ticks.append((day, "\(Self.monthNames[day.month - 1]) \(day.year)"))
        }
        day = day.firstOfNextMonth
      }
    }
    // A label near an edge is anchored at that edge so that it stays inside the image.
    func anchor(_ x: Double) -> String {
      x > Double(width) - 40 ? "end" : x < 40 ? "start" : "middle"
    }
    // Where a label's text lies, from the width of a digit at 12 px in DejaVu Sans (the
    // widest of the usual sans-serif fonts): 7.7 px, 8.4 px in bold. A week before the last
    // day, 80 px away, `2026-04-12` ran into the bold `2026-04-19` anchored at the edge.
    func extent(_ day: CivilDate, _ label: String) -> ClosedRange<Double> {
      let x = frame.x(day)
      let width = Double(label.count) * (day == lastDay ? 8.4 : 7.7)
      switch anchor(x) {
      case "end": return (x - width)...x
      case "start": return x...(x + width)
      default: return (x - width / 2)...(x + width / 2)
      }
    }
    // The last day is always labelled; ticks whose labels would touch it give way.
    let last = extent(lastDay, lastDay.description)
    let clear = (last.lowerBound - 8)...(last.upperBound + 8)
    ticks.removeAll { $0.day != lastDay && extent($0.day, $0.label).overlaps(clear) }
    if !ticks.contains(where: { $0.day == lastDay }) {
      ticks.append((lastDay, lastDay.description))
      ticks.sort { $0.day < $1.day }
    }
    var lines = ["<g class=\"x-ticks\">"]
    for tick in ticks {
      let x = Self.number(frame.x(tick.day))
      let weight = tick.day == lastDay ? " font-weight=\"bold\"" : ""
      lines.append(
        "<line x1=\"\(x)\" y1=\"\(Self.number(frame.bottom))\" x2=\"\(x)\" "
          + "y2=\"\(Self.number(frame.bottom + 5))\" stroke=\"#333333\"/>"
          + "<text x=\"\(x)\" y=\"\(Self.number(frame.bottom + 20))\" "
          + "text-anchor=\"\(anchor(frame.x(tick.day)))\"\(weight)>\(tick.label)</text>")
    }
    lines.append("</g>")
    return lines
  }

  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private func goalElements(_ frame: Frame, axisEnd: CivilDate) -> [String] {
    guard let goal else { return [] }
    let value = unit.mass.fromKilograms(goal)
    let label = "goal \(XMLText.escaped(unit.format(kilograms: goal)))"
    var lines = ["<g class=\"goal\">"]
    if value > frame.high || value < frame.low {
      // Far outside the data: an arrow at the edge pointing to it, with its value.
      let above = value > frame.high
      let y = above ? frame.top + 14 : frame.bottom - 8
      lines.append(
        "<text class=\"goal-off-axis\" x=\"\(Self.number(frame.left + 8))\" y=\"\(Self.number(y))\" "
          + "fill=\"#d9822b\">\(above ? "▲" : "▼") \(label)</text>")
    } else {
      let y = frame.y(value)
      lines.append(
        "<line x1=\"\(Self.number(frame.left))\" y1=\"\(Self.number(y))\" "
          + "x2=\"\(Self.number(frame.right))\" y2=\"\(Self.number(y))\" stroke=\"#d9822b\" "
          + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/><text x=\"\(Self.number(frame.left + 8))\" "
          + "y=\"\(Self.number(y - 6))\" fill=\"#d9822b\">\(label)</text>")
    }
    if let goalDay, let last = points.last {
      // The projection runs from the last trend point to the goal on its date, clipped to the
      // plot when either lies beyond it.
      let x1 = frame.x(last.day)
      let y1 = frame.y(unit.mass.fromKilograms(last.trend))
      let x2 = frame.x(goalDay)
      let y2 = frame.y(value)
      lines.append(
        "<line class=\"projection\" x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" "
          + "x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" stroke=\"#d9822b\" "
          + "stroke-width=\"2\" stroke-dasharray=\"3 3\" clip-path=\"url(#plot)\"/>")
      let beyond = goalDay > axisEnd
      // The date sits above the goal line at the right, inside the plot.
      let labelY = max(min(y2, frame.bottom) - 8, frame.top + 14)
      lines.append(
        "<text class=\"projection-label\" x=\"\(Self.number(frame.right - 4))\" "
          + "y=\"\(Self.number(labelY))\" text-anchor=\"end\" fill=\"#d9822b\">"
          + "goal on \(goalDay)\(beyond ? " →" : "")</text>")
    }
    lines.append("</g>")
    return lines
  }

  private func seriesElements(_ frame: Frame) -> [String] {
    guard !points.isEmpty else { return [] }
    let mass = unit.mass
    let trend = points.map {
      "\(Self.number(frame.x($0.day))),\(Self.number(frame.y(mass.fromKilograms($0.trend))))"
    }
    var lines = ["<g class=\"sinkers\" stroke=\"#999999\" stroke-width=\"1\">"]
    // TrendWeight's sinkers: a grey line from each weight to the trend on its day.
    for point in points where !point.isInterpolated {
      let x = Self.number(frame.x(point.day))
      lines.append(
        "<line x1=\"\(x)\" y1=\"\(Self.number(frame.y(mass.fromKilograms(point.kilograms))))\" "
          + "x2=\"\(x)\" y2=\"\(Self.number(frame.y(mass.fromKilograms(point.trend))))\"/>")
    }
    lines.append("</g>")
    lines += [
      "<polyline class=\"trend\" points=\"\(trend.joined(separator: " "))\" fill=\"none\" "
        + "stroke=\"#c2185b\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
      "<g class=\"weights\" fill=\"#1f5fa8\">",
    ]
    for point in points where !point.isInterpolated {
      lines.append(
        "<circle cx=\"\(Self.number(frame.x(point.day)))\" "
          + "cy=\"\(Self.number(frame.y(mass.fromKilograms(point.kilograms))))\" r=\"3\"/>")
    }
    lines.append("</g>")
    return lines
  }

  private func legend(_ frame: Frame) -> [String] {
    let y = Self.number(Double(height) - 14)
    var items = [
      "<circle cx=\"\(Self.number(frame.left + 6))\" cy=\"\(y)\" r=\"3\" fill=\"#1f5fa8\"/>"
        + "<text x=\"\(Self.number(frame.left + 14))\" y=\"\(y)\" dominant-baseline=\"middle\">weight</text>",
      "<line x1=\"\(Self.number(frame.left + 80))\" y1=\"\(y)\" x2=\"\(Self.number(frame.left + 100))\" "
        + "y2=\"\(y)\" stroke=\"#c2185b\" stroke-width=\"2\"/>"
        + "<text x=\"\(Self.number(frame.left + 106))\" y=\"\(y)\" dominant-baseline=\"middle\">trend</text>",
    ]
    if goal != nil {
      items.append(
        "<line x1=\"\(Self.number(frame.left + 160))\" y1=\"\(y)\" x2=\"\(Self.number(frame.left + 180))\" "
          + "y2=\"\(y)\" stroke=\"#d9822b\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
          + "<text x=\"\(Self.number(frame.left + 186))\" y=\"\(y)\" dominant-baseline=\"middle\">goal</text>"
      )
    }
    if !band.isEmpty {
      items.append(
        "<rect x=\"\(Self.number(frame.left + 230))\" y=\"\(Self.number(Double(height) - 20))\" "
          + "width=\"20\" height=\"12\" fill=\"#2e9d5a\" fill-opacity=\"0.15\" stroke=\"#2e9d5a\" "
          + "stroke-opacity=\"0.4\"/><text x=\"\(Self.number(frame.left + 256))\" y=\"\(y)\" "
          + "dominant-baseline=\"middle\">recommended range</text>")
    }
    return ["<g class=\"legend\">"] + items + ["</g>"]
  }

  /// A coordinate with at most one decimal.
  static func number(_ value: Double) -> String {
    let text = DisplayUnit.formatNumber(value, decimals: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
