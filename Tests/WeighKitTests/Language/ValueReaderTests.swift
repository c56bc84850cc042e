import Foundation
import Testing

@testable import WeighKit

@Suite struct ValueReaderTests {
  let utc = ZonedClock(identifier: "UTC")!
  let now: Int64 = 1_767_254_400  // 2026-01-01T08:00:00Z

  func cursor(_ text: String, zone: ZonedClock? = nil) throws -> ArgumentCursor {
    ArgumentCursor(
      tokens: try Lexer.tokenize(text),
      context: ParseContext(file: "t", line: 1, text: text, clock: zone ?? utc, now: now))
  }

  static let weightCases: [(String, Double)] = [
    ("68.5kg", 68.5), ("68.5 kg", 68.5), ("151.2lb", 151.2 * 0.45359237),
    ("151.2 lbs", 151.2 * 0.45359237), ("11st 4lb", 158 * 0.45359237),
    ("11 st 4 lb", 158 * 0.45359237), ("70000g", 70), ("10.5st", 147 * 0.45359237),
  ]

  @Test(arguments: weightCases)
  func weights(_ text: String, _ kilograms: Double) throws {
    var reader = try cursor(text)
    let value = try reader.readWeight().kilograms
    #expect(abs(value - kilograms) < 1e-12)
    #expect(reader.isAtEnd)
  }

  @Test func aBareNumberIsAWeightInTheDisplayUnit() throws {
    var kilograms = try cursor("68.5")
    #expect(try kilograms.readWeight().kilograms == 68.5)
    var pounds = ArgumentCursor(
      tokens: try Lexer.tokenize("181.2 at 07:00"),
      context: ParseContext(
        file: "t", line: 1, text: "181.2 at 07:00", clock: utc, now: now, unit: .lb))
    #expect(abs(try pounds.readWeight().kilograms - 181.2 * 0.45359237) < 1e-12)
    #expect(pounds.peek()?.isWord("at") == true)
    var stones = ArgumentCursor(
      tokens: try Lexer.tokenize("11"),
      context: ParseContext(file: "t", line: 1, text: "11", clock: utc, now: now, unit: .st))
    #expect(abs(try stones.readWeight().kilograms - 154 * 0.45359237) < 1e-12)
  }

  @Test func weightErrorsNameWhatWasExpected() throws {
    var reader = try cursor("heavy")
    do throws(Diagnostic) {
      _ = try reader.readWeight()
      Issue.record("heavy read as a weight")
    } catch {
      #expect(error.message == "expected a weight such as 68.5kg, got \"heavy\"")
      #expect(error.span?.column == 1)
    }
    var wrongKind = try cursor("105mg/dL")
    #expect(throws: Diagnostic.self) { try wrongKind.readWeight() }
  }

  @Test func lengthsDurationsAndRates() throws {
    var height = try cursor("5ft 6in")
    #expect(abs(try height.readLength() - 1.6764) < 1e-12)
    for (text, seconds) in [
      ("90s", 90), ("15min", 900), ("6h", 21_600), ("1d", 86_400), ("2w", 1_209_600),
      ("3 days", 259_200), ("2 weeks", 1_209_600),
    ] {
      var reader = try cursor(text)
      #expect(try reader.readDuration().seconds == Int64(seconds))
    }
    var rate = try cursor("-0.5kg/w")
    #expect(abs(try rate.readRate(.mass, expected: "a rate").perSecond * 604_800 + 0.5) < 1e-12)
    var glucose = try cursor("5.8mmol/L")
    #expect(
      abs(
        try glucose.readQuantity([.glucose], expected: "glucose").value - 5.8
          * 18.015_588_000_005_408) < 1e-12)
  }

  @Test func instants() throws {
    func instant(_ text: String, zone: ZonedClock? = nil) throws -> Int64 {
      var reader = try cursor(text, zone: zone)
      let value = try reader.readInstant().instant
      #expect(reader.isAtEnd)
      return value
    }
    #expect(try instant("now") == now)
    #expect(try instant("today") == 1_767_225_600)
    #expect(try instant("yesterday 07:30") == 1_767_225_600 - 86_400 + 27_000)
    #expect(try instant("2026-01-03") == 1_767_398_400)
    #expect(try instant("2026-01-03 07:30") == 1_767_398_400 + 27_000)
    #expect(try instant("2026-01-03T07:30:15") == 1_767_398_400 + 27_015)
    #expect(try instant("2026-01-03T07:30+01:00") == 1_767_398_400 + 23_400)
    #expect(try instant("07:30Z") == 1_767_225_600 + 27_000)
    let berlin = ZonedClock(identifier: "Europe/Berlin")!
    #expect(try instant("2026-07-01 12:00", zone: berlin) == 1_782_900_000)  // +02:00 in summer
    #expect(try instant("2026-01-01 12:00", zone: berlin) == 1_767_265_200)  // +01:00 in winter
    // Before the spring gap, in it (forward by the gap) and in the autumn overlap (earlier).
    #expect(try instant("2026-03-29 01:30", zone: berlin) == 1_774_744_200)  // 00:30Z
    #expect(try instant("2026-03-29 02:30", zone: berlin) == 1_774_747_800)  // 01:30Z
    #expect(try instant("2026-03-29T02:30", zone: berlin) == 1_774_747_800)
    #expect(try instant("2026-10-25 02:30", zone: berlin) == 1_792_888_200)  // 00:30Z
    #expect(try instant("2026-10-25 02:30+01:00", zone: berlin) == 1_792_891_800)  // 01:30Z
  }

  @Test func invalidDatesAreErrors() throws {
    for text in ["2026-02-30", "2026-13-01", "24:00", "07:60", "2026-01-01T07:30+1:00", "tomorrow"]
    {
      var reader = try cursor(text)
      #expect(throws: Diagnostic.self) { try reader.readInstant() }
    }
  }

  @Test func suggestions() {
    #expect(Suggestion.closest(to: "lgo", among: CommandTable.names) == "log")
    #expect(Suggestion.closest(to: "setings", among: CommandTable.names) == "settings")
    #expect(Suggestion.closest(to: "zzzzzz", among: CommandTable.names) == nil)
  }
}

@Suite struct DiagnosticRendererTests {
  @Test func scriptAndReplLayouts() {
    let span = SourceSpan(file: "w.wcfg", line: 3, text: "log 68.5", start: 4, end: 8)
    let diagnostic = Diagnostic("expected a weight such as 68.5kg, got \"68.5\"", at: span)
    #expect(
      DiagnosticRenderer().render(diagnostic)
        == "w.wcfg:3:5: error: expected a weight such as 68.5kg, got \"68.5\"\nlog 68.5\n    ^^^^\n"
    )
    #expect(
      DiagnosticRenderer(interactivePromptWidth: 7).render(diagnostic)
        == "           ^^^^\nerror: expected a weight such as 68.5kg, got \"68.5\"\n")
    #expect(DiagnosticRenderer(color: true).render(diagnostic).contains("\u{1B}[1;31merror:"))
  }
}
