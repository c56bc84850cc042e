extension ArgumentCursor {
  static let instantExample =
    "a date or time such as 2026-01-03 07:30, 07:30, today, now or -3d"

  /// Reads an instant: `now`, `today`, `yesterday`, a date, a time, a date and a time
  /// (one word with `T`, or two words), with an optional offset (`Z`, `+01:00`), or the
  /// clock moved by a signed duration (`-3d`, `+2h`).
  /// Without an offset it is read in the session's time zone.
  /// Instants outside 1900-01-01 … 9999-12-31 (``ValueLimits/instant``) are an error.
  public mutating func readInstant() throws(Diagnostic) -> (instant: Int64, span: SourceSpan) {
    let (instant, span) = try readAnyInstant()
    guard Instant.isValid(instant) else {
      throw Diagnostic(
        "an instant must lie between \(Instant.rangeText) (UTC); give a date in that range",
        at: span)
    }
    return (instant, span)
  }

  private mutating func readAnyInstant() throws(Diagnostic) -> (instant: Int64, span: SourceSpan) {
    let first = peek()
    CompletionProbe.offer(.instant, if: first)
    guard let first, first.kind == .word else {
      throw error("expected \(Self.instantExample), \(got(first))", at: first)
    }
    let clock = context.clock
    let word = first.text.lowercased()
    if word == "now" {
      index += 1
      return (context.now, span(first))
    }
    if word.hasPrefix("-") || word.hasPrefix("+"), NumberPrefix(word) != nil {
      return try readRelativeInstant(from: first)
    }
    var date: CivilDate
    var timeText: Substring?
    if word == "today" || word == "yesterday" {
      date = clock.local(context.now).date
      if word == "yesterday" { date = CivilDate(daysSinceEpoch: date.daysSinceEpoch - 1) }
      index += 1
    } else if let parsed = try parseDate(first) {
      date = parsed.date
      timeText = parsed.time
      index += 1
    } else if looksLikeTime(first.text) {
      date = clock.local(context.now).date
      timeText = Substring(first.text)
      index += 1
    } else {
      throw error("expected \(Self.instantExample), \(got(first))", at: first)
    }
    var last = first
    if timeText == nil { CompletionProbe.offer(.time, if: peek()) }
    if timeText == nil, let next = peek(), next.kind == .word, looksLikeTime(next.text) {
      timeText = Substring(next.text)
      last = next
      index += 1
    }
    let whole = span(from: first, to: last)
    guard let timeText else {
      return (clock.startOfDay(date), whole)
    }
    let (secondOfDay, offset) = try parseTime(timeText, span: whole)
    if let offset {
      // checked: Int to Int64 widens
      return (date.seconds(at: secondOfDay) - Int64(offset), whole)
    }
    return (clock.instant(of: date, secondOfDay: secondOfDay), whole)
  }

  /// `-3d`, `+2h`, `-90 min`: the clock moved by a signed duration.
  private mutating func readRelativeInstant(from first: Token) throws(Diagnostic) -> (
    instant: Int64, span: SourceSpan
  ) {
    let expected = "a signed duration such as -3d or +2h"
    let quantity = try readQuantity([.time], expected: expected)
    let whole = span(from: first, to: tokens[index - 1])
    guard let shift = TimeSpan(checkedSeconds: abs(quantity.value)),
      let instant = quantity.value < 0
        ? Instant.subtracting(shift, from: context.now) : Instant.adding(shift, to: context.now)
    else {
      throw Diagnostic(
        "an instant must lie between \(Instant.rangeText), and \(first.text) goes beyond; give a shorter duration",
        at: whole)
    }
    return (instant, whole)
  }

  /// Reads a calendar date (`2026-01-03`, `today`, `yesterday`).
  public mutating func readDate() throws(Diagnostic) -> CivilDate {
    let token = peek()
    CompletionProbe.offer(.date, if: token)
    if let token, token.isWord("today") || token.isWord("yesterday") {
      index += 1
      let today = context.clock.local(context.now).date
      return token.isWord("today") ? today : CivilDate(daysSinceEpoch: today.daysSinceEpoch - 1)
    }
    guard let token, token.kind == .word, let parsed = try parseDate(token), parsed.time == nil
    else {
      throw error(
        "expected a date such as 2026-01-03, today or yesterday, \(got(token))", at: token)
    }
    guard parsed.date.year >= 1900 else {
      throw error(
        "a date must lie between \(Instant.rangeText); give a date in that range", at: token)
    }
    index += 1
    return parsed.date
  }

  private func looksLikeTime(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.count >= 5 && bytes[2] == UInt8(ascii: ":") && isDigit(bytes[0])
      && isDigit(bytes[1])
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// `YYYY-MM-DD`, optionally followed by `T` and a time; nil when `token` is no date.
  private func parseDate(_ token: Token) throws(Diagnostic) -> (date: CivilDate, time: Substring?)?
  {
    let text = token.text
    let bytes = Array(text.utf8)
    guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[0..<4].allSatisfy(isDigit), bytes[5..<7].allSatisfy(isDigit),
      bytes[8..<10].allSatisfy(isDigit)
    else { return nil }
    let year = Int(String(decoding: bytes[0..<4], as: UTF8.self))!  // checked: parses 4 digits
    let month = Int(String(decoding: bytes[5..<7], as: UTF8.self))!  // checked: parses 2 digits
    let day = Int(String(decoding: bytes[8..<10], as: UTF8.self))!  // checked: parses 2 digits
    guard (1...12).contains(month) else {
      throw error("invalid date \"\(text.prefix(10))\": there is no month \(month)", at: token)
    }
    let days = CivilDate.daysIn(month: month, year: year)
    guard (1...days).contains(day) else {
      throw error(
        "invalid date \"\(text.prefix(10))\": month \(month) of \(year) has \(days) days", at: token
      )
    }
    let date = CivilDate(year: year, month: month, day: day)
    if bytes.count == 10 { return (date, nil) }
    guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes.count > 11 else {
      throw error(
        "expected a date such as 2026-01-03 or 2026-01-03T07:30, \(got(token))", at: token)
    }
    return (date, text.dropFirst(11))
  }

  /// `HH:MM[:SS]` with an optional `Z`, `±HH:MM`, `±HHMM` or `±HH`; returns the second of
  /// the day and the offset in seconds when one was given.
  private func parseTime(_ text: Substring, span: SourceSpan) throws(Diagnostic) -> (Int, Int?) {
    let bytes = Array(text.utf8)
    // A function, not a value: building the message interpolates `text`, which costs
    // 3,600 instructions a `log … at` line (callgrind, bench-data/log-2k.wcfg) on success.
    func failure() -> Diagnostic {
      Diagnostic(
        "expected a time such as 07:30 or 07:30:15 (optionally with Z or +01:00), got \"\(text)\"",
        at: span)
    }
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= bytes.count, bytes[from..<from + count].allSatisfy(isDigit) else {
        return nil
      }
      // checked: parses at most 2 digits
      return Int(String(decoding: bytes[from..<from + count], as: UTF8.self))
    }
    guard let hour = number(0, 2), bytes.count >= 5, bytes[2] == UInt8(ascii: ":"),
      let minute = number(3, 2)
    else { throw failure() }
    var position = 5
    var second = 0
    if position < bytes.count, bytes[position] == UInt8(ascii: ":") {
      guard let value = number(position + 1, 2) else { throw failure() }
      second = value
      position += 3
    }
    guard hour < 24, minute < 60, second < 60 else {
      throw Diagnostic(
        "invalid time \"\(text)\": hours go to 23, minutes and seconds to 59", at: span)
    }
    var offset: Int?
    if position < bytes.count {
      let sign = bytes[position]
      if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z"), position + 1 == bytes.count {
        offset = 0
      } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        let rest = bytes.count - position - 1
        guard let offsetHours = number(position + 1, 2) else { throw failure() }
        var offsetMinutes = 0
        if rest == 5, bytes[position + 3] == UInt8(ascii: ":"), let value = number(position + 4, 2)
        {
          offsetMinutes = value
        } else if rest == 4, let value = number(position + 3, 2) {
          offsetMinutes = value
        } else if rest != 2 {
          throw failure()
        }
        guard offsetHours <= 14, offsetMinutes < 60 else { throw failure() }
        offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
      } else {
        throw failure()
      }
    }
    return (hour * 3600 + minute * 60 + second, offset)
  }
}
