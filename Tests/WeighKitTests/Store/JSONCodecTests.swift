import PropertyBased
import Testing

@testable import WeighKit

/// Reads one JSON value from `text`, requiring nothing after it.
private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
  try JSONReader.withReader(over: Array(text.utf8)) { (reader) throws(JSONSyntaxError) in
    let value = try reader.readValue()
    try reader.expectEnd()
    return value
  }
}

private func written(_ value: JSONValue, indent: Int? = nil) -> String {
  var writer = JSONWriter()
  writer.write(value, indent: indent)
  return String(decoding: writer.bytes, as: UTF8.self)
}

@Suite struct JSONReaderTests {
  @Test func readsEveryKindOfValue() throws {
    let value = try parse(#" {"a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d"}} "#)
    #expect(
      value
        == .object([
          "a": [.integer(1), .integer(-2), .number(3.5), .number(1000), true, false, nil],
          "b": ["c": "d"],
        ]))
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try parse(#""q\"b\\s\/n\nt\tr\rb\bf\f é \u00e9 \u20AC \ud83d\ude00""#)
    #expect(value == .string("q\"b\\s/n\nt\tr\rb\u{8}f\u{C} é é € 😀"))
  }

  @Test(arguments: [
    (#""\ud83d""#, "a high surrogate \\u escape must be followed by a low surrogate"),
    (#""\ude00x""#, "a low surrogate \\u escape without a high surrogate before it"),
    (#""\u12G4""#, "expected four hex digits after \\u"),
    (#""\q""#, "unknown escape; use one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
  ])
  func rejectsBadEscapes(text: String, message: String) {
    #expect(throws: JSONSyntaxError(line: 1, column: 2, message: message)) { try parse(text) }
  }

  @Test func reportsLineAndColumnOfTheProblem() {
    let text = "{\n  \"a\": 1,\n  \"b\": [1 2]\n}"
    #expect(
      throws: JSONSyntaxError(
        line: 3, column: 11, message: "expected ',' or ']' after an element, found '2'")
    ) { try parse(text) }
  }

  @Test func countsColumnsInCharactersNotBytes() {
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 7, message: "expected ',' or ']' after an element, found 'x'")
    ) {
      try parse("[\"éé\" x]")
    }
  }

  @Test(arguments: [
    "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "{a:1}", "[1] 2", "\"a\u{1}\"", "[-]",
    "tru",
  ])
  func rejectsInvalidJSON(text: String) {
    #expect(throws: JSONSyntaxError.self) { try parse(text) }
  }

  @Test func rejectsInvalidUTF8() {
    let bytes: [UInt8] = [0x22, 0xFF, 0x22]
    #expect(throws: JSONSyntaxError.self) {
      try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
        try reader.readString()
      }
    }
  }

  @Test func keepsIntegersApartFromFractions() throws {
    #expect(try parse("9007199254740993") == .integer(9_007_199_254_740_993))
    #expect(try parse("-9223372036854775808") == .integer(.min))
    #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
    #expect(try parse("2.0") == .number(2))
  }

  @Test func readsNumbersOutsideTheFastPathCorrectlyRounded() throws {
    #expect(try parse("0.1e-5") == .number(1e-6))
    #expect(try parse("123456789012345678901234567890") == .number(1.2345678901234568e29))
    #expect(try parse("4.9406564584124654e-324") == .number(4.9406564584124654e-324))
    #expect(try parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    #expect(throws: JSONSyntaxError.self) { try parse("1e400") }
  }

  @Test func everyFiniteDoubleRoundTripsThroughWriterAndReader() async {
    await propertyCheck(count: 2000, input: Gen<UInt64>.value()) { bits in
      let value = Double(bitPattern: bits)
      guard value.isFinite else { return }
      var writer = JSONWriter()
      writer.write(value)
      let back = try? JSONReader.withReader(over: writer.bytes) {
        (reader) throws(JSONSyntaxError) in
        try reader.readDouble()
      }
      #expect(back?.bitPattern == value.bitPattern, "\(value)")
    }
  }

  @Test func stringsOfAnyMixRoundTrip() async {
    let alphabet: [String] = [
      "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{1}", "\u{1F}", "é", "€", "😀", "\u{7F}",
    ]
    await propertyCheck(count: 3000, input: Gen.int(in: 0...13).array(of: 0...40)) { picks in
      let text = picks.map { alphabet[$0] }.joined()
      var writer = JSONWriter()
      writer.write(text)
      let back = try? JSONReader.withReader(over: writer.bytes) {
        (reader) throws(JSONSyntaxError) in
        let raw = try reader.readRawString()
        #expect(raw.isASCII == text.utf8.allSatisfy { $0 < 0x80 })
        return try reader.decode(raw)
      }
      #expect(back == text)
    }
  }

  @Test func findsAControlCharacterInsideAString() {
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 12, message: "control character in a string; write it as an escape")
    ) {
      try parse("\"abcdefghij\u{9}\"")
    }
  }

  @Test func weightsWithFewDecimalsRoundTrip() async {
    await propertyCheck(count: 2000, input: Gen.int(in: 1...10_000_000)) { thousandths in
      let value = Double(thousandths) / 1000
      var writer = JSONWriter()
      writer.write(value)
      let back = try? JSONReader.withReader(over: writer.bytes) {
        (reader) throws(JSONSyntaxError) in
        try reader.readDouble()
      }
      #expect(back == value)
    }
  }
}

@Suite struct JSONWriterTests {
  @Test func writesKeysInSortedOrder() {
    #expect(written(["b": 1, "a": [true, nil], "é": "x"]) == #"{"a":[true,null],"b":1,"é":"x"}"#)
  }

  @Test func indentsWhenAsked() {
    #expect(
      written(["a": [1, 2], "b": [:]], indent: 0)
        == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}")
  }

  @Test func escapesWhatJSONRequires() {
    #expect(written("a\"b\\c\nd\u{1}e/é") == #""a\"b\\c\nd\u0001e/é""#)
  }

  @Test func writesNonFiniteNumbersAsNullAndSaysSo() {
    var writer = JSONWriter()
    writer.write(Double.nan)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "null")
    #expect(writer.wroteNonFiniteNumber)
  }

  @Test func writesIntegerExtremes() throws {
    #expect(
      written([.integer(.min), .integer(.max), 0, -7])
        == "[-9223372036854775808,9223372036854775807,0,-7]")
    #expect(
      try parse(written([.integer(.min), .integer(.max)])) == [.integer(.min), .integer(.max)])
  }

  @Test func valuesRoundTrip() throws {
    let value: JSONValue = [
      "name": "Zoë \u{1F600} \"quoted\"\n", "n": 68.5, "i": -42, "list": [1.5e-7, 1e300, "x", nil],
      "nested": ["deep": [false]],
    ]
    #expect(try parse(written(value)) == value)
    #expect(try parse(written(value, indent: 0)) == value)
  }
}
