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
}
