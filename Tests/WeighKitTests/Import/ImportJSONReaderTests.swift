import Testing

@testable import WeighKit

@Suite struct ImportJSONReaderTests {
  @Test func nodesKnowTheirLinesAndNumbersKeepTheirText() throws {
    let text = "\u{FEFF}[\n  {\"w\": 70.10,\n   \"s\": \"A\\u00e9\"},\n  null, true,\n  -1e2]"
    let document = try ImportJSONReader.parse(Array(text.utf8))
    guard case .array(let items) = document.value else {
      Issue.record("expected an array")
      return
    }
    #expect(document.line == 1)
    #expect(items.map(\.line) == [2, 4, 4, 5])
    #expect(items[0].value["w"]?.value == .number("70.10"))
    #expect(items[0].value["w"]?.number == 70.1)
    #expect(items[0].value["s"]?.line == 3)
    #expect(items[0].value["s"]?.string == "Aé")
    #expect(items[1].isNull)
    #expect(items[2].value == .bool(true))
    #expect(items[3].number == -100)
  }

  @Test func aSyntaxErrorNamesItsLineAndColumn() {
    let error = #expect(throws: ImportError.self) {
      try ImportJSONReader.parse(Array("[1,\n 2,\n 03]".utf8))
    }
    #expect(error?.line == 3)
    #expect(error?.column == 2)
    #expect(throws: ImportError.self) { try ImportJSONReader.parse(Array("[1] 2".utf8)) }
    #expect(throws: ImportError.self) { try ImportJSONReader.parse(Array("".utf8)) }
  }
}
