import Testing

@testable import WeighKit

/// The `format` a refused date is told to add is built from the date's own shape, and reads it.
@Suite struct CSVDateSuggestionTests {
  @Test(arguments: [
    ("25/09/2026 07:00", ["dd/MM/yyyy HH:mm"]),
    ("10/13/2026, 9:00 PM", ["MM/dd/yyyy, h:mm a"]),
    ("05/09/2026", ["dd/MM/yyyy", "MM/dd/yyyy"]),
    ("5-9-2026 06:00:59", ["dd-MM-yyyy HH:mm:ss", "MM-dd-yyyy HH:mm:ss"]),
    ("25.09.2026 7:05:03.25 pm", ["dd.MM.yyyy h:mm:ss.SS a"]),
    ("2026/09/25 07:00", ["yyyy/MM/dd HH:mm"]),
    ("2026/25/09", ["yyyy/dd/MM"]),
    ("  14/02/2014 6:04 Uhr ", ["dd/MM/yyyy HH:mm 'Uhr'"]),
    ("20170426", ["yyyyMMdd"]),
    ("20170426 07:05", ["yyyyMMdd HH:mm"]),
    // An offset after the time (real25): `XXX`.
    ("25/09/2026 07:00+01:00", ["dd/MM/yyyy HH:mmXXX"]),
    ("2022-01-19 06:22:42 -0800", ["yyyy-MM-dd HH:mm:ss XXX"]),
  ])
  func aSuggestionReadsTheDateItCameFrom(text: String, expected: [String]) throws {
    let suggested = CSVDatePattern.suggestions(for: text[...])
    #expect(suggested == expected)
    for pattern in suggested {
      guard case .success(let format) = CSVDatePattern.make(pattern) else {
        Issue.record("\(pattern) is not a valid format")
        continue
      }
      #expect(format.read(text[...]) != nil, "\(pattern) does not read \(text)")
    }
  }

  @Test(arguments: [
    "", "yesterday", "13/13/2026", "32/01/2026", "2026-01", "1/2/26", "07:00", "25/09/2026 7",
    "25/09/2026 07:00+1", "25/09/2026 o'clock 7:00", "00/09/2026", "2025-12-0x",
    "2014-02-11 25:09 Uhr", "31/02/2026", "20171326", "20170431", "2017042", "201704261",
    "20170426 98.0",
  ])
  func noSuggestionForWhatIsNoDateOfThatShape(text: String) {
    #expect(CSVDatePattern.suggestions(for: text[...]).isEmpty)
  }

  @Test func theGenericReaderSaysWhichOrderAFileUses() {
    #expect(
      GenericCSVImporter.dateReason("25/09/2026 07:00")
        == "date '25/09/2026 07:00' is day/month (the first number is over 12); add format \"dd/MM/yyyy HH:mm\""
    )
    #expect(
      GenericCSVImporter.dateReason("09/25/2026")
        == "date '09/25/2026' is month/day (the second number is over 12); add format \"MM/dd/yyyy\""
    )
    #expect(
      GenericCSVImporter.dateReason("2026/25/09")
        == "date '2026/25/09' is not like 2026-01-03 07:00; add format \"yyyy/dd/MM\"")
    #expect(GenericCSVImporter.dateReason("05/09/2026").contains("could be day/month or month/day"))
    // A date without separators once drew an example that does not read it (dd.MM.yyyy).
    #expect(
      GenericCSVImporter.dateReason("20170426")
        == "date '20170426' is not like 2026-01-03 07:00; add format \"yyyyMMdd\"")
    #expect(GenericCSVImporter.formatHint("soon") == "")
  }
}
