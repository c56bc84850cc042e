import Foundation
import Testing

@testable import WeighKit

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct ChartTests {
  /// 30 days from 70 kg down 0.1 kg a day, weighed every other day.
  var trend: Trend {
    Trend(
      days: stride(from: 0, to: 30, by: 2).map {
        DailyValue(
          day: day(2026, 1, 1).adding(days: $0), kilograms: 70 - 0.1 * Double($0), readingCount: 1)
      })
  }

  @Test func terminalChartFitsAndLabels() {
    for style in TerminalChart.Style.allCases {
      let lines = TerminalChart(points: trend.points, unit: .kg, width: 60, height: 8, style: style)
        .lines()
      #expect(lines.count == 8 + 3)
      #expect(lines.allSatisfy { $0.count <= 60 })
      #expect(lines.last?.hasPrefix(String(repeating: " ", count: 6) + "2026-01-01") == true)
      #expect(lines.last?.hasSuffix("2026-01-29") == true)
      #expect(lines[0].contains("(kg)"))
      // Rows are labelled top to bottom from high to low, in kg.
      let labels = lines[1...8].map { Double($0.split(separator: " ")[0])! }
      #expect(labels == labels.sorted(by: >))
      // 67.2–70 kg on 8 rows: a step of 0.5 kg, the top row at 70.
      #expect(labels.first == 70)
      #expect(labels.last == 66.5)
      #expect(labels.allSatisfy { ($0 * 2).rounded() == $0 * 2 })
      // The first weight (the highest) is in the top row, the last (67.2) in the 67.0 row.
      let mark: Character = style == .unicode ? "•" : "*"
      #expect(lines[1].contains(mark))
      #expect(lines[7].hasPrefix("67.0") && lines[7].contains(mark))
      #expect(lines[1...8].map { $0.filter { $0 == mark }.count }.reduce(0, +) <= 15)
    }
  }

  @Test func asciiChartIsAscii() {
    let lines = TerminalChart(points: trend.points, unit: .lb, width: 50, height: 5, style: .ascii)
      .lines()
    #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    #expect(lines[0].contains("(lb)"))
    // 148.15–154.32 lb on 5 rows: a step of 2 lb, from 156 down to 148.
    #expect(lines[1...5].map { $0.prefix(5) } == ["156 |", "154 |", "152 |", "150 |", "148 |"])
  }

  @Test func unicodeChartDrawsTheTrendInBraille() {
    let lines = TerminalChart(points: trend.points, unit: .kg, width: 60, height: 8).lines()
    let braille = lines.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }
    #expect(braille.count > 20)
  }

  @Test func emptyAndSingleDayCharts() {
    #expect(TerminalChart(points: [], unit: .kg).lines() == ["no weights to chart"])
    let one = Trend(days: [DailyValue(day: day(2026, 1, 1), kilograms: 70, readingCount: 1)])
    let lines = TerminalChart(points: one.points, unit: .kg, width: 40, height: 4).lines()
    #expect(lines.count == 7)
    #expect(lines.last == "      2026-01-01")
  }

  @Test func segmentJoinsItsEnds() {
    let line = TerminalChart.segment(from: (0, 0), to: (5, 2))
    #expect(line.first! == (0, 0))
    #expect(line.last! == (5, 2))
    #expect(line.count == 6)
  }

  func parse(_ svg: String) throws -> XMLElement {
    let document = try XMLDocument(data: Data(svg.utf8))
    return try #require(document.rootElement())
  }

  /// The value of an attribute (`attribute(forName:)` finds nothing in FoundationXML on Linux).
  func attribute(_ element: XMLElement, _ name: String) -> String? {
    element.attributes?.first { $0.name == name }?.stringValue
  }

  func elements(_ root: XMLElement, _ name: String) -> [XMLElement] {
    var found: [XMLElement] = []
    func walk(_ element: XMLElement) {
      if element.name == name { found.append(element) }
      for child in element.children ?? [] {
        if let child = child as? XMLElement { walk(child) }
      }
    }
    walk(root)
    return found
  }

  @Test func svgIsWellFormedWithTheExpectedElements() throws {
    let band = (0..<29).map {
      SVGChart.BandDay(day: day(2026, 1, 1).adding(days: $0), low: 66, high: 69)
    }
    let svg = SVGChart(
      title: "weight <jan> & trend", points: trend.points, unit: .kg, goal: 68, band: band
    ).document()
    let root = try parse(svg)
    #expect(root.name == "svg")
    #expect(attribute(root, "width") == "800")
    #expect(elements(root, "title").first?.stringValue == "weight <jan> & trend")
    #expect(elements(root, "circle").count == 15 + 1)  // weights plus the legend dot
    let polyline = try #require(elements(root, "polyline").first)
    #expect(attribute(polyline, "points")?.split(separator: " ").count == 29)
    #expect(elements(root, "polygon").count == 1)
    let texts = elements(root, "text").compactMap(\.stringValue)
    #expect(texts.contains("weight (kg)"))
    #expect(texts.contains("goal 68.0 kg"))
    #expect(texts.contains("2026-01-01"))
    #expect(texts.contains("recommended range"))
    #expect(elements(root, "line").contains { attribute($0, "stroke-dasharray") != nil })
  }

  @Test func svgWithoutGoalOrBandOrPoints() throws {
    let root = try parse(SVGChart(title: "empty", points: [], unit: .st).document())
    #expect(elements(root, "polyline").isEmpty)
    #expect(elements(root, "polygon").isEmpty)
    let texts = elements(root, "text").compactMap(\.stringValue)
    #expect(texts.contains("no weights to chart"))
    #expect(!texts.contains("goal"))
  }

  @Test func terminalGoalRowOnlyInsideTheRangeAnArrowOutside() {
    for style in TerminalChart.Style.allCases {
      let dash: Character = style == .unicode ? "┄" : "."
      let inside = TerminalChart(
        points: trend.points, unit: .kg, width: 60, height: 8, style: style, goal: 68
      ).lines()
      #expect(inside[0].contains("\(dash) goal 68.0"))
      // The plot part of a row, after the axis (labels have decimal points).
      let axis: Character = style == .unicode ? "┤" : "|"
      func plot(_ row: String) -> Substring { row.drop { $0 != axis } }
      let rows = inside[1...8].filter { plot($0).contains(dash) }
      #expect(rows.count == 1)
      #expect(rows.first?.hasPrefix("68.0") == true)
      let outside = TerminalChart(
        points: trend.points, unit: .kg, width: 60, height: 8, style: style, goal: 60
      ).lines()
      // Below the range: no row, an arrow toward it in the legend.
      #expect(outside[0].contains(style == .unicode ? "▼ goal 60.0" : "v goal 60.0"))
      #expect(!outside[1...8].contains { plot($0).contains(dash) })
      let above = TerminalChart(
        points: trend.points, unit: .kg, width: 60, height: 8, style: style, goal: 90
      ).lines()
      #expect(above[0].contains(style == .unicode ? "▲ goal 90.0" : "^ goal 90.0"))
    }
  }

  @Test func terminalRowsAreRoundAndCoverTheData() {
    for (low, high, count) in [
      (67.2, 70.0, 8), (148.15, 154.32, 5), (80.0, 80.0, 12), (60, 95, 12),
    ] {
      let rows = TerminalChart.rows(low: low, high: high, count: count, minimumSpan: 1)
      let bottom = rows.top - Double(count - 1) * rows.step
      #expect(rows.top >= high - 1e-9 && bottom <= low + 1e-9)
      #expect(
        [1.0, 2, 5].contains { abs(rows.step / pow(10, floor(log10(rows.step))) - $0) < 1e-9 })
      #expect(abs((rows.top / rows.step).rounded() - rows.top / rows.step) < 1e-9)
    }
  }

  @Test func terminalDateLabelsBetweenTheEnds() throws {
    let long = Trend(
      days: stride(from: 0, to: 200, by: 7).map {
        DailyValue(day: day(2026, 1, 5).adding(days: $0), kilograms: 90, readingCount: 1)
      })
    let lines = TerminalChart(points: long.points, unit: .kg, width: 72, height: 4, style: .ascii)
      .lines()
    let dates = try #require(lines.last)
    #expect(dates.contains("2026-01-05") && dates.hasSuffix("2026-07-20"))
    #expect(dates.contains("Mar") && dates.contains("May"))
    #expect(lines[lines.count - 2].filter { $0 == "+" }.count >= 3)
    let short = TerminalChart(points: trend.points, unit: .kg, width: 72, height: 4, style: .ascii)
      .lines()
    // Mondays between the ends, as MM-DD.
    #expect(short.last?.contains("01-12") == true)
  }

  @Test func svgSinkersProjectionAndDescription() throws {
    let svg = SVGChart(
      title: "t", points: trend.points, unit: .kg, goal: 66.5, goalDay: day(2026, 2, 5)
    ).document()
    let root = try parse(svg)
    let groups = elements(root, "g")
    let sinkers = try #require(groups.first { attribute($0, "class") == "sinkers" })
    #expect(elements(sinkers, "line").count == 15)
    let projection = try #require(
      elements(root, "line").first { attribute($0, "class") == "projection" })
    #expect(attribute(projection, "clip-path") == "url(#plot)")
    #expect(elements(root, "clipPath").count == 1)
    let texts = elements(root, "text").compactMap(\.stringValue)
    #expect(texts.contains("goal on 2026-02-05"))
    // The last day is labelled even when it falls between ticks.
    #expect(texts.contains("2026-01-29"))
    let desc = try #require(elements(root, "desc").first?.stringValue)
    #expect(desc.contains("15 weighed days from 2026-01-01 to 2026-01-29"))
    #expect(desc.contains("goal 66.5 kg, projected for 2026-02-05"))
  }

  @Test func svgFarGoalStaysAtTheEdge() throws {
    let svg = SVGChart(title: "t", points: trend.points, unit: .kg, goal: 50).document()
    let root = try parse(svg)
    let texts = elements(root, "text").compactMap(\.stringValue)
    #expect(texts.contains("▼ goal 50.0 kg"))
    // No dashed goal line across the plot, and the weight axis stays near the data.
    let goal = try #require(elements(root, "g").first { attribute($0, "class") == "goal" })
    #expect(elements(goal, "line").isEmpty)
    let ticks = try #require(elements(root, "g").first { attribute($0, "class") == "y-ticks" })
    let values = elements(ticks, "text").compactMap { $0.stringValue.flatMap(Double.init) }
    #expect(values.min()! >= 66 && values.max()! <= 71)
  }

  @Test func svgMonthLabelsOnALongRange() throws {
    let long = Trend(
      days: stride(from: 0, to: 200, by: 7).map {
        DailyValue(day: day(2026, 1, 5).adding(days: $0), kilograms: 90, readingCount: 1)
      })
    let root = try parse(SVGChart(title: "t", points: long.points, unit: .kg).document())
    let ticks = try #require(elements(root, "g").first { attribute($0, "class") == "x-ticks" })
    let labels = elements(ticks, "text").compactMap(\.stringValue)
    // July's tick gives way to the last day's label, 19 days later.
    #expect(labels.contains("Feb 2026") && labels.contains("Jun 2026"))
    #expect(!labels.contains("Jul 2026"))
    #expect(labels.last == "2026-07-20")
  }

  @Test func niceTicks() {
    #expect(ChartScale.niceStep(span: 15, count: 6) == 2)
    #expect(ChartScale.niceStep(span: 0.6, count: 6) == 0.1)
    #expect(ChartScale.niceStep(span: 0.9, count: 6) == 0.2)
    #expect(ChartScale.ticks(low: 66.9, high: 70.2, step: 1) == [67, 68, 69, 70])
    #expect(ChartScale.decimals(forStep: 0.5) == 1)
    #expect(ChartScale.decimals(forStep: 5) == 0)
  }
}
