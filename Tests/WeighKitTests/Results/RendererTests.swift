import Foundation
import Testing

@testable import WeighKit

/// JSON Lines and CSV from result values: what other programs parse.
@Suite struct RendererTests {
  static let table = DataTable(
    columns: ["id", "time", "weight_kg", "note", "ok", "rate"],
    rows: [
      [
        .integer(1), .instant(1_767_254_400), .number(68.58333333333333), .text("a, \"b\"\nc"),
        .bool(true), .number(.nan),
      ],
      [.integer(2), .instant(0), .number(70), .null, .bool(false), .number(nil)],
    ])

  @Test func jsonLinesAreOneParsableObjectPerRowWithKeysInOrder() throws {
    let lines = JSONLinesRenderer.lines(of: Self.table)
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("{\"id\":1,\"time\":\"2026-01-01T08:00:00Z\",\"weight_kg\":"))
    let first = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["weight_kg"] as? Double == 68.58333333333333)
    #expect(first["note"] as? String == "a, \"b\"\nc")
    #expect(first["ok"] as? Bool == true)
    #expect(first["rate"] is NSNull)
    let second = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["time"] as? String == "1970-01-01T00:00:00Z")
    #expect(second["note"] is NSNull)
    #expect(!lines[0].contains("\n"))
  }

  @Test func csvHasAHeaderAndQuotesWhatNeedsIt() {
    let lines = CSVRenderer.lines(of: Self.table)
    #expect(lines[0] == "id,time,weight_kg,note,ok,rate")
    #expect(lines[1] == "1,2026-01-01T08:00:00Z,68.58333333333333,\"a, \"\"b\"\"\nc\",true,")
    #expect(lines[2] == "2,1970-01-01T00:00:00Z,70.0,,false,")
  }

  @Test func anEmptyTableIsNothingInJSONAndAHeaderInCSV() {
    let empty = DataTable(columns: ["a", "b"], rows: [])
    #expect(JSONLinesRenderer.lines(of: empty).isEmpty)
    #expect(CSVRenderer.lines(of: empty) == ["a,b"])
  }

  @Test func proseIsAMessageRowInTheMachineFormats() {
    let entry = Entry(
      id: 3, instant: 1_767_254_400, kilograms: 68.5, origin: .manual, source: "weigh")
    let result = CommandResult([.message("unit: lb"), .entries([entry])])
    var context = RenderContext(unit: .lb, zone: ZonedClock(zone: TimeZone(identifier: "UTC")!))
    #expect(
      ResultRenderer.lines(of: result, in: context) == [
        "unit: lb", "#3  2026-01-01 08:00  151.0 lb  manual  weigh",
      ])
    context.format = .json
    #expect(
      ResultRenderer.lines(of: result, in: context) == [
        "{\"message\":\"unit: lb\"}",
        "{\"id\":3,\"time\":\"2026-01-01T08:00:00Z\",\"weight_kg\":68.5,\"origin\":\"manual\","
          + "\"source\":\"weigh\",\"note\":null,\"revision\":1}",
      ])
    context.format = .csv
    #expect(
      ResultRenderer.lines(of: result, in: context) == [
        "message", "unit: lb", "id,time,weight_kg,origin,source,note,revision",
        "3,2026-01-01T08:00:00Z,68.5,manual,weigh,,1",
      ])
  }

  @Test func consecutiveProseSharesOneCSVHeaderAndQuotesItsCommas() {
    let result = CommandResult([
      .message("imported 2, already present 0"), .lines(["a \"b\"", "c"]), .message("d"),
    ])
    var context = RenderContext(unit: .kg, zone: ZonedClock(zone: TimeZone(identifier: "UTC")!))
    context.format = .csv
    #expect(
      ResultRenderer.lines(of: result, in: context) == [
        "message", "\"imported 2, already present 0\"", "\"a \"\"b\"\"\"", "c", "d",
      ])
    context.format = .json
    #expect(
      ResultRenderer.lines(of: result, in: context) == [
        "{\"message\":\"imported 2, already present 0\"}", "{\"message\":\"a \\\"b\\\"\"}",
        "{\"message\":\"c\"}", "{\"message\":\"d\"}",
      ])
  }
}
