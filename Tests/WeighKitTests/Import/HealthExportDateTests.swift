import Foundation
import Testing

@testable import WeighKit

@Suite struct HealthExportDateTests {
  @Test func parsesAndWritesApplesFormat() throws {
    let date = try #require(HealthExportDate.parse("2026-01-03 07:30:00 +0100"))
    #expect(date.instant == 1_767_421_800)
    #expect(date.offsetSeconds == 3600)
    #expect(date.description == "2026-01-03 07:30:00 +0100")
    #expect(
      HealthExportDate.parse("2018-09-10 02:28:55 -0700")?.description
        == "2018-09-10 02:28:55 -0700")
    #expect(HealthExportDate.parse("1969-12-31 23:59:59 +0000")?.instant == -1)
    #expect(HealthExportDate.parse("2024-02-29 12:00:00 +0530")?.offsetSeconds == 19_800)
  }

  @Test func rejectsImpossibleDates() {
    for text in [
      "2026-13-01 00:00:00 +0000", "2025-02-29 00:00:00 +0000", "2026-04-31 00:00:00 +0000",
      "2026-01-01 24:00:00 +0000", "2026-01-01 00:00:00 0000", "2026-01-01T00:00:00 +0000",
      "2026-01-01 00:00:00", "", "2026-01-01 00:0a:00 +0000",
    ] {
      #expect(HealthExportDate.parse(text) == nil, "\(text)")
    }
  }

  @Test func takesTheOffsetOfItsOwnMoment() throws {
    let amsterdam = try #require(ZonedClock(identifier: "Europe/Amsterdam"))
    #expect(
      HealthExportDate(instant: 1_767_421_800, zone: amsterdam).description
        == "2026-01-03 07:30:00 +0100")
    #expect(
      HealthExportDate(instant: 1_783_144_800, zone: amsterdam).description
        == "2026-07-04 08:00:00 +0200")
  }

  /// Dates at the edges, with the instant and offset each stands for (worked out apart, with
  /// Python's `datetime.strptime`), or nil for those refused.
  static let edges: [(text: String, instant: Int64, offset: Int32)?] = [
    ("2024-02-29 23:59:59 -1400", 1_709_301_599, -50_400),
    ("2024-02-29 00:00:00 +1400", 1_709_114_400, 50_400),
    ("2000-02-29 12:00:00 +0000", 951_825_600, 0),
    ("1900-02-28 00:00:00 +0000", -2_203_977_600, 0),
    ("2100-02-28 23:59:59 +0545", 4_107_521_699, 20_700),
    ("2016-12-31 23:59:59 -0930", 1_483_262_999, -34_200),
    ("20150603050217+0100", 1_433_304_137, 3600),
    ("20240229235959-1400", 1_709_301_599, -50_400),
  ]

  static let refused = [
    "1900-02-29 00:00:00 +0000", "2100-02-29 00:00:00 +0000", "2023-02-29 12:00:00 +0100",
    "2024-02-30 00:00:00 +0000", "2024-00-10 00:00:00 +0000", "2024-02-00 00:00:00 +0000",
    "2024-02-29 23:59:60 +0000", "2024-02-29 23:60:00 +0000", "2024-02-29 12:00:00 +2400",
    "2024-02-29 12:00:00 +0060", "2024-02-29 12:00:00 *0100", "2024-02-29 12:00:00 +01:0",
    "2O24-02-29 12:00:00 +0100", "2024-02-29 12:00:00 +0100 ", "20240229120000 0100",
    "20240229120000+01OO", "20230229120000+0100", "2024022912000+01000", "2024-02-2912:00:00 +0100",
  ]

  @Test func readsDatesAtTheEdges() throws {
    for edge in Self.edges {
      let edge = try #require(edge)
      let date = try #require(HealthExportDate.parse(edge.text), "\(edge.text)")
      #expect(date.instant == edge.instant, "\(edge.text)")
      #expect(date.offsetSeconds == edge.offset, "\(edge.text)")
    }
    #expect(
      HealthExportDate.parse("20150603050217+0100")?.description == "2015-06-03 05:02:17 +0100")
    for text in Self.refused { #expect(HealthExportDate.parse(text) == nil, "\(text)") }
  }

  /// The reader remembers the last day and offset: whatever came before, each date reads as
  /// it does alone, a refused one included (one refused on a day or offset just read well).
  @Test func theReaderAgreesWithAFreshParseInAnyOrder() {
    var texts = Self.edges.compactMap { $0?.text } + Self.refused
    // The same day and offset as a good date, with one other field wrong.
    texts += [
      "2024-02-29 23:59:59 -1400", "2024-02-29 24:00:00 -1400", "2024-02-29 23:59:59 -1400",
      "2024-02-29 23:59:59 -14OO", "20240229235959-1400", "2024-02-29 2x:59:59 -1400",
      "20240229235959-1460", "20240229235959+1400",
    ]
    // Every rotation of the list, forwards and backwards: each date follows every other.
    let orders = texts.indices.flatMap { shift in
      let rotated = Array(texts[shift...] + texts[..<shift])
      return [rotated, rotated.reversed()]
    }
    for order in orders {
      var reader = HealthExportDate.Reader()
      for text in order {
        var copy = text
        let read = copy.withUTF8 { reader.parse($0) }
        #expect(read == HealthExportDate.parse(text), "\(text) in \(order)")
      }
    }
  }
}
