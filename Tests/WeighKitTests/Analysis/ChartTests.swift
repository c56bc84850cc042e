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
      // Bounds 67.06–70.14 kg (67.2–70 widened 10%); rows are labelled at their middles.
      #expect(labels.first == 69.9)
      #expect(labels.last == 67.3)
      // The first weight (the highest) is in the top row, the last in the bottom row.
      let mark: Character = style == .unicode ? "•" : "*"
      #expect(lines[1].contains(mark))
      #expect(lines[8].contains(mark))
      #expect(lines[1...8].map { $0.filter { $0 == mark }.count }.reduce(0, +) <= 15)
    }
  }

  @Test func asciiChartIsAscii() {
    let lines = TerminalChart(points: trend.points, unit: .lb, width: 50, height: 5, style: .ascii)
      .lines()
    #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    #expect(lines[0].contains("(lb)"))
    // 148.15–154.32 lb widened to 147.84–154.63; the top row's middle is 153.95.
    #expect(lines[1].hasPrefix("154.0 |"))
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

  @Test func niceTicks() {
    #expect(ChartScale.niceStep(span: 15, count: 6) == 2)
    #expect(ChartScale.niceStep(span: 0.6, count: 6) == 0.1)
    #expect(ChartScale.niceStep(span: 0.9, count: 6) == 0.2)
    #expect(ChartScale.ticks(low: 66.9, high: 70.2, step: 1) == [67, 68, 69, 70])
    #expect(ChartScale.decimals(forStep: 0.5) == 1)
    #expect(ChartScale.decimals(forStep: 5) == 0)
  }
}
