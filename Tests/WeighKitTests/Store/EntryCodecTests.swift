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

  @Test func keepsTheFileTimeAndReadsEntriesWithoutIt() throws {
    let entry = Entry(
      id: 2, instant: 1_767_250_800, kilograms: 70, origin: .import, source: "Withings",
      fileTime: 1_767_254_400)
    let line = encode(entry)
    #expect(line.hasSuffix(#","rev":1,"fileTime":"2026-01-01T08:00:00"}"#))
    #expect(try decode(line) == entry)
    let older = try decode(
      #"{"id":2,"at":"2026-01-01T07:00:00Z","kg":70,"origin":"import","source":"Withings"}"#)
    #expect(older.fileTime == nil)
    #expect(throws: JSONSyntaxError.self) {
      try decode(
        #"{"id":2,"at":"2026-01-01T07:00:00Z","kg":70,"origin":"import","source":"W","fileTime":"2026-01-01T08:00:00Z"}"#
      )
    }
  }

  @Test func roundTripsEveryMember() throws {
    let entry = Entry(
      id: 12, instant: 951_782_400, kilograms: 70.123456789, origin: .health,
      source: "Withings \"Body+\"",
      note: "after run\nsecond line", revision: 3,
      healthUUID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
      pushedUUID: "3f2504e0-4f89-11d3-9a0c-0305e82c3302", pushedRevision: 2)
    #expect(try decode(encode(entry)) == entry)
  }

  @Test func roundTripsInstantsAcrossTheCalendar() async {
    let range = ValueLimits.instant
    await propertyCheck(
      count: 3000, input: Gen.int(in: Int(range.lowerBound)...Int(range.upperBound))
    ) {
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

  /// The error `decode` reports for `text`, or nil when it reads.
  private func failure(_ text: String) -> JSONSyntaxError? {
    do {
      _ = try decode(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func rejectsEveryValueOutsideItsRangeAtTheValue() {
    let cases: [(String, Int, String)] = [
      (
        #"{"id":1,"at":60,"kg":1e19,"origin":"manual","source":"s"}"#, 22,
        #""kg" is 1e19, out of range: a weight is more than 0 and at most 1000 kg"#
      ),
      (
        #"{"id":1,"at":60,"kg":1e308,"origin":"manual","source":"s"}"#, 22,
        #""kg" is 1e308, out of range: a weight is more than 0 and at most 1000 kg"#
      ),
      (
        #"{"id":1,"at":60,"kg":-2,"origin":"manual","source":"s"}"#, 22,
        #""kg" is -2, out of range: a weight is more than 0 and at most 1000 kg"#
      ),
      (
        #"{"id":0,"at":60,"kg":2,"origin":"manual","source":"s"}"#, 7,
        #""id" is 0, out of range: an entry number is a whole number from 1 to 2147483647"#
      ),
      (
        #"{"id":9223372036854775807,"at":60,"kg":2,"origin":"manual","source":"s"}"#, 7,
        #""id" is 9223372036854775807, out of range: an entry number is a whole number from 1 to 2147483647"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":"manual","source":"s","rev":9223372036854775807}"#, 61,
        #""rev" is 9223372036854775807, out of range: a revision is a whole number from 1 to 2147483647"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":"manual","source":"s","pushedRev":1.5}"#, 67,
        #""pushedRev" is 1.5, out of range: a revision is a whole number from 1 to 2147483647"#
      ),
      (
        #"{"id":1,"at":1e300,"kg":2,"origin":"manual","source":"s"}"#, 14,
        #""at" is 1e300, out of range: a time is a whole number of seconds from 1900-01-01 to 9999-12-31 (UTC)"#
      ),
      (
        #"{"id":1,"at":"1899-12-31T23:59:59Z","kg":2,"origin":"manual","source":"s"}"#, 14,
        #""at" is "1899-12-31T23:59:59Z", out of range: a time is a whole number of seconds from 1900-01-01 to 9999-12-31 (UTC)"#
      ),
    ]
    for (text, column, message) in cases {
      #expect(
        failure(text) == JSONSyntaxError(line: 1, column: column, message: message), "\(text)")
    }
  }

  @Test func rejectsWrongTypesInsteadOfDefaulting() {
    let cases: [(String, Int, String)] = [
      (
        #"{"id":1,"at":60,"kg":"70","origin":"manual","source":"s"}"#, 22,
        #""kg" must be a number (a weight is more than 0 and at most 1000 kg), not a string"#
      ),
      (
        #"{"id":"1","at":60,"kg":2,"origin":"manual","source":"s"}"#, 7,
        #""id" must be a number (an entry number is a whole number from 1 to 2147483647), not a string"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":"manual","source":7}"#, 51,
        #""source" must be a string, not a number"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":true,"source":"s"}"#, 33,
        #""origin" must be "manual", "health" or "import", not true or false"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":"manual","source":"s","note":null}"#, 62,
        #""note" must be a string, not null"#
      ),
      (
        #"{"id":1,"at":60,"kg":2,"origin":"manual","source":"s","healthUUID":"A-B"}"#, 68,
        #""healthUUID" is not a UUID such as "B3F2AF6D-0FC7-40C5-853B-559647364CEA""#
      ),
    ]
    for (text, column, message) in cases {
      #expect(
        failure(text) == JSONSyntaxError(line: 1, column: column, message: message), "\(text)")
    }
  }

  @Test func acceptsTheEdgesOfEveryRange() throws {
    let entry = try decode(
      #"{"id":2147483647,"at":253402300799,"kg":1000,"origin":"manual","source":"s","rev":2147483647,"pushedRev":1}"#
    )
    #expect(entry.id == 2_147_483_647 && entry.kilograms == 1000 && entry.revision == 2_147_483_647)
    #expect(
      try decode(#"{"id":1,"at":-2208988800,"kg":5e-324,"origin":"manual","source":"s"}"#).instant
        == -2_208_988_800)
  }
}
