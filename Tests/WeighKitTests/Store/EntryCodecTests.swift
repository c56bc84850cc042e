import PropertyBased
import Testing

@testable import WeighKit

private func encode(_ entry: Entry) -> String {
  var writer = JSONWriter()
  EntryCodec.encode(entry, into: &writer)
  return String(decoding: writer.bytes, as: UTF8.self)
}

private func decode(_ text: String) throws(JSONSyntaxError) -> Entry {
  try JSONReader.withReader(over: Array(text.utf8)) { (reader) throws(JSONSyntaxError) in
    try EntryCodec.decode(from: &reader)
  }
}

@Suite struct EntryCodecTests {
  @Test func writesTheDocumentedLineWithOptionalMembersLeftOut() {
    let entry = Entry(
      id: 1, instant: 1_767_254_400, kilograms: 68.5, origin: .manual, source: "weigh")
    #expect(
      encode(entry)
        == #"{"id":1,"at":"2026-01-01T08:00:00Z","kg":68.5,"origin":"manual","source":"weigh","rev":1}"#
    )
  }

  @Test func roundTripsEveryMember() throws {
    let entry = Entry(
      id: 12, instant: 951_782_400, kilograms: 70.123456789, origin: .health,
      source: "Withings \"Body+\"",
      note: "after run\nsecond line", revision: 3, healthUUID: "A-B", pushedUUID: "C-D",
      pushedRevision: 2)
    #expect(try decode(encode(entry)) == entry)
  }

  @Test func roundTripsInstantsAcrossTheCalendar() async {
    await propertyCheck(count: 3000, input: Gen.int(in: -70_000_000_000...300_000_000_000)) {
      seconds in
      let entry = Entry(id: 1, instant: Int64(seconds), kilograms: 1, origin: .import, source: "x")
      #expect((try? decode(encode(entry))) == entry, "\(seconds)")
    }
  }

  @Test func readsLeapDaysAndRejectsImpossibleDates() throws {
    let leap = try decode(
      #"{"id":1,"at":"2024-02-29T23:59:59Z","kg":1,"origin":"manual","source":"s"}"#)
    #expect(leap.instant == 1_709_251_199)
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 14, message: #"expected a UTC time such as "2026-01-01T08:00:00Z""#)
    ) {
      try decode(#"{"id":1,"at":"2023-02-29T00:00:00Z","kg":1,"origin":"manual","source":"s"}"#)
    }
  }

  @Test func namesWhatIsMissing() {
    #expect(throws: JSONSyntaxError(line: 1, column: 1, message: "entry lacks kg, source")) {
      try decode(#"{"id":1,"at":"2023-02-28T00:00:00Z","origin":"manual"}"#)
    }
  }

  @Test func rejectsUnknownOriginsAndNonPositiveWeights() {
    #expect(throws: JSONSyntaxError.self) {
      try decode(#"{"id":1,"at":1,"kg":1,"origin":"scale","source":"s"}"#)
    }
    #expect(throws: JSONSyntaxError.self) {
      try decode(#"{"id":1,"at":1,"kg":0,"origin":"manual","source":"s"}"#)
    }
  }

  @Test func skipsUnknownMembersAndAcceptsAnyOrder() throws {
    let entry = try decode(
      #"{"source":"s","future":{"x":[1]},"kg":2.5,"origin":"import","at":60,"id":4}"#)
    #expect(entry == Entry(id: 4, instant: 60, kilograms: 2.5, origin: .import, source: "s"))
  }
}
