/// A date and time layout such as `dd/MM/yyyy HH:mm` or `MMM d, yyyy`, read byte by byte.
///
/// Letters: `yyyy` year, `MM`/`M` month (1–2 digits), `MMM` an English month abbreviation
/// (`Jan`…`Dec`, any case), `dd`/`d` day, `HH`/`H` hour 0–23, `hh`/`h` hour 1–12 with `a`
/// (`AM`/`PM`), `mm` minute, `ss` second, `S…` a fraction of a second (dropped), `XXX` an
/// offset (`Z`, `+01:00`, `+0100`). Any other byte must appear as written; `'…'` quotes letters.
public struct CSVDatePattern: Hashable, Sendable {
  enum Piece: Hashable {
    case year, month, monthName, day, hour24, hour12, minute, second, fraction, meridiem, offset
    case literal(UInt8)
  }

  let pieces: [Piece]
  /// The pattern as the user wrote it, for messages.
  public let text: String
  /// Whether the pattern names a time of day.
  public let hasTime: Bool

  init(pieces: [Piece], text: String) {
    self.pieces = pieces
    self.text = text
    hasTime = pieces.contains { $0 == .hour24 || $0 == .hour12 }
  }
  /// Whether the pattern names a date.
  public var hasDate: Bool { pieces.contains(.year) }

  /// A pattern, or why not (lower case, naming the fix).
  public static func make(_ text: String) -> Result<CSVDatePattern, PatternError> {
    var pieces: [Piece] = []
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if c == 0x27 {  // '…' quotes literal text
        i += 1
        while i < bytes.count, bytes[i] != 0x27 {
          pieces.append(.literal(bytes[i]))
          i += 1
        }
        i += 1
        continue
      }
      var run = 1
      while i + run < bytes.count, bytes[i + run] == c { run += 1 }
      let piece: Piece?
      switch (c, run) {
      case (UInt8(ascii: "y"), 4): piece = .year
      case (UInt8(ascii: "M"), 1...2): piece = .month
      case (UInt8(ascii: "M"), 3): piece = .monthName
      case (UInt8(ascii: "d"), 1...2): piece = .day
      case (UInt8(ascii: "H"), 1...2): piece = .hour24
      case (UInt8(ascii: "h"), 1...2): piece = .hour12
      case (UInt8(ascii: "m"), 1...2): piece = .minute
      case (UInt8(ascii: "s"), 1...2): piece = .second
      case (UInt8(ascii: "S"), _): piece = .fraction
      case (UInt8(ascii: "a"), 1): piece = .meridiem
      case (UInt8(ascii: "X"), 1...3): piece = .offset
      default:
        let isLetter = (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
        if isLetter {
          return .failure(
            PatternError(
              "'\(String(repeating: Character(Unicode.Scalar(c)), count: run))' is not a date letter; use yyyy, MM, MMM, dd, HH, hh, mm, ss, SSS, a or XXX, and quote other letters as 'T'"
            ))
        }
        piece = nil
      }
      if let piece {
        pieces.append(piece)
      } else {
        pieces.append(contentsOf: Array(repeating: .literal(c), count: run))
      }
      i += run
    }
    guard pieces.contains(.year), pieces.contains(.month) || pieces.contains(.monthName),
      pieces.contains(.day)
    else {
      return .failure(PatternError("a date format needs yyyy, MM (or MMM) and dd"))
    }
    if pieces.contains(.hour12) != pieces.contains(.meridiem) {
      return .failure(PatternError("hh (1–12) needs a (AM/PM); use HH for 0–23"))
    }
    return .success(CSVDatePattern(pieces: pieces, text: text))
  }

  /// Why a format string cannot be used.
  public struct PatternError: Error, Hashable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
  }

  /// What a cell says: a wall-clock time, with the offset when the cell wrote one.
  public struct Reading: Hashable, Sendable {
    public var local: LocalDateTime
    /// Seconds east of UTC, when the text had an offset.
    public var offset: Int?
    /// Whether the text named a time of day (otherwise the time is 00:00).
    public var hasTime: Bool
  }

  /// Reads `text` (leading and trailing spaces ignored); nil when it does not fit.
  public func read(_ text: Substring) -> Reading? {
    read(bytes: Array(text.utf8)[...])
  }

  /// Reads UTF-8 `text` (leading and trailing spaces ignored); nil when it does not fit.
  func read(bytes text: ArraySlice<UInt8>) -> Reading? {
    guard let fields = fields(text), let hour = fields.hourOfDay(),
      let local = LocalDateTime(
        year: fields.year, month: fields.month, day: fields.day, hour: hour,
        minute: fields.minute, second: fields.second)
    else { return nil }
    return Reading(local: local, offset: fields.offset, hasTime: hasTime)
  }

  /// The second of the day a pattern of clock pieces alone (``clock(_:)``) reads in UTF-8
  /// `text` (leading and trailing spaces ignored), by the rules of ``read(bytes:)``; nil when
  /// it does not fit or a field is out of range.
  func secondOfDay(bytes text: ArraySlice<UInt8>) -> Int? {
    guard let fields = fields(text), let hour = fields.hourOfDay(), fields.minute < 60,
      fields.second < 60
    else { return nil }
    return hour * 3600 + fields.minute * 60 + fields.second
  }

  /// A pattern of clock pieces alone (`HH:mm`, `h:mm a`), which ``make(_:)`` refuses (it
  /// needs a date), for ``secondOfDay(bytes:)``.
  static func clock(_ text: String) -> CSVDatePattern {
    let pieces = known("yyyy-MM-dd " + text).pieces.dropFirst(6)
    return CSVDatePattern(pieces: Array(pieces), text: text)
  }

  /// The numbers a text writes for each piece, before they are checked against the calendar.
  struct Fields {
    var year = 0
    var month = 0
    var day = 0
    var hour = 0
    var minute = 0
    var second = 0
    var pm: Bool?
    var offset: Int?

    /// The hour on a 24-hour clock (`hh` with `a` turned so); nil when `hh` is not 1–12 or
    /// the hour is past 23.
    func hourOfDay() -> Int? {
      guard let pm else { return hour < 24 ? hour : nil }
      guard (1...12).contains(hour) else { return nil }
      return hour % 12 + (pm ? 12 : 0)
    }
  }

  /// The fields of UTF-8 `text` (leading and trailing spaces ignored) when it has the
  /// pattern's shape; nil otherwise.
  func fields(_ text: ArraySlice<UInt8>) -> Fields? {
    text.withUnsafeBufferPointer { fields($0) }
  }

  /// ``fields(_:)`` of bytes in memory (no slice to keep alive and check at every byte).
  private func fields(_ text: UnsafeBufferPointer<UInt8>) -> Fields? {
    var start = 0
    var end = text.count
    while start < end, text[start] == 0x20 { start += 1 }
    while end > start, text[end - 1] == 0x20 { end -= 1 }
    let bytes = UnsafeBufferPointer(rebasing: text[start..<end])
    var i = 0
    var fields = Fields()
    func digits(_ range: ClosedRange<Int>) -> Int? {
      var value = 0
      var count = 0
      while i < bytes.count, count < range.upperBound, bytes[i] &- 0x30 < 10 {
        // checked: a byte 0…9, at most nine digits
        value = value * 10 + Int(bytes[i] &- 0x30)
        count += 1
        i += 1
      }
      return range.contains(count) ? value : nil
    }
    for piece in pieces {
      switch piece {
      case .year: guard let v = digits(4...4) else { return nil }; fields.year = v
      case .month: guard let v = digits(1...2) else { return nil }; fields.month = v
      case .day: guard let v = digits(1...2) else { return nil }; fields.day = v
      case .hour24, .hour12: guard let v = digits(1...2) else { return nil }; fields.hour = v
      case .minute: guard let v = digits(2...2) else { return nil }; fields.minute = v
      case .second: guard let v = digits(2...2) else { return nil }; fields.second = v
      case .fraction: guard digits(1...9) != nil else { return nil }
      case .monthName:
        guard i + 3 <= bytes.endIndex, let index = Self.monthIndex(bytes[i..<i + 3]) else {
          return nil
        }
        fields.month = index + 1
        i += 3
        // A full name (`December`) or a dotted abbreviation (`Dec.`) reads as its first three.
        while i < bytes.endIndex, (0x61...0x7A).contains(bytes[i] | 0x20) || bytes[i] == 0x2E {
          i += 1
        }
      case .meridiem:
        guard i + 2 <= bytes.endIndex else { return nil }
        switch (bytes[i] | 0x20, bytes[i + 1] | 0x20) {
        case (0x61, 0x6D): fields.pm = false
        case (0x70, 0x6D): fields.pm = true
        default: return nil
        }
        i += 2
      case .offset:
        guard i < bytes.endIndex else { return nil }
        if bytes[i] == UInt8(ascii: "Z") {
          fields.offset = 0
          i += 1
          continue
        }
        let sign: Int
        switch bytes[i] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        i += 1
        guard let h = digits(2...2) else { return nil }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ":") { i += 1 }
        guard let m = digits(2...2), h < 24, m < 60 else { return nil }
        fields.offset = sign * (h * 3600 + m * 60)
      case .literal(let byte):
        guard i < bytes.endIndex, bytes[i] == byte else { return nil }
        i += 1
      }
    }
    guard i == bytes.endIndex else { return nil }
    return fields
  }

  /// The month (0 for January) of three bytes naming it in English, any case: the bytes of
  /// ``monthNames`` with ASCII letters lowered (a byte past ASCII names no month: the three
  /// letters' text lowered would not be ASCII either).
  static func monthIndex<Name: Sequence<UInt8>>(_ name: Name) -> Int? {
    var key = 0
    for byte in name {
      guard (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) else { return nil }
      key = key << 8 | Int(byte | 0x20)  // checked: UInt8 to Int widens
    }
    return monthKeys.firstIndex(of: key)
  }

  /// ``monthNames``' three bytes each, packed into one number.
  static let monthKeys = monthNames.map {
    $0.utf8.reduce(0) { $0 << 8 | Int($1) }  // checked: UInt8 to Int widens
  }

  static let monthNames = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// A pattern written in the code; it is known to be valid.
  static func known(_ text: String) -> CSVDatePattern {
    switch make(text) {
    case .success(let pattern): return pattern
    case .failure(let error): preconditionFailure("\(text): \(error.message)")
    }
  }
}

extension CSVDatePattern.Reading {
  /// The instant: from the offset when the text had one, else the wall-clock time in `zone`.
  func instant(in zone: ZonedClock) -> Int64 {
    if let offset {
      return ZonedClock.utc.instant(of: local.date, secondOfDay: local.secondOfDay)
        - Int64(offset)  // checked: an offset under a day
    }
    return local.instant(in: zone)
  }

  /// The wall-clock time to key the record on, when the text had no offset.
  var zoneLess: LocalDateTime? { offset == nil ? local : nil }
}
