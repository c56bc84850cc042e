extension CSVDatePattern {
  /// The `format` patterns that would read `text`, built from its own shape: one when the
  /// order of day and month is certain (a year first, or a number over 12 where a month
  /// would stand), two when either order fits (day first, then month first), none when the
  /// text is not a date with digits for day, month and year, or no pattern of its shape
  /// reads it (an hour 25, a 31 February).
  ///
  /// `10/13/2026, 9:00 PM` gives `MM/dd/yyyy, h:mm a`; `25.09.2026 07:00:05` gives
  /// `dd.MM.yyyy HH:mm:ss`; `05/09/2026` gives `dd/MM/yyyy` and `MM/dd/yyyy`; `20170426`
  /// gives `yyyyMMdd`; `31-Dec-1969 16:00` gives `dd-MMM-yyyy HH:mm`.
  static func suggestions(for text: Substring) -> [String] {
    let bytes = Array(text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
    // Runs of digits, letters and the other bytes, in order.
    var runs: [(kind: RunKind, bytes: ArraySlice<UInt8>)] = []
    var start = 0
    while start < bytes.count {
      let kind = RunKind(bytes[start])
      var end = start + 1
      while end < bytes.count, RunKind(bytes[end]) == kind, kind != .other { end += 1 }
      runs.append((kind, bytes[start..<end]))
      start = end
    }
    guard let head = runs.first, head.kind == .digits else { return [] }
    let dates: [String]
    // Where the time starts, when one follows the date.
    var timeStart = 5
    if head.bytes.count == 8 {
      // `20170426`: year, month and day without separators, as logs kept by hand write
      // them (two public repositories' weight.csv); the reading below checks month and day.
      dates = ["yyyyMMdd"]
      timeStart = 1
    } else {
      // The date: three numbers with one separator between each, or a month's name
      // between day and year (`31-Dec-1969 16:00`, a public repository's export of HealthKit
      // weights, which was refused with a format that does not read it).
      guard runs.count >= 5, runs[2].kind == .digits || runs[2].kind == .letters,
        runs[4].kind == .digits, runs[1].kind == .other, runs[3].kind == .other
      else { return [] }
      dates = separatedDates(runs)
      guard !dates.isEmpty else { return [] }
    }
    // The time, when one follows: hours and minutes, perhaps seconds and a fraction, an
    // AM/PM; what stands between is kept as written.
    var parts: [String] = []
    var clockPieces = 0
    // Where the hour stands in `parts`: `HH`, or `h` once an AM/PM follows.
    var hour: Int?
    // An offset at the end, `-0800` or `+01:00` (HealthKit's dates, `2022-01-19 06:22:42
    // -0800`, in a public repository's CSV, real25): read by `XXX`, which was not named.
    var end = runs.count
    func isSign(_ index: Int) -> Bool {
      runs[index].kind == .other && (runs[index].bytes == [0x2B] || runs[index].bytes == [0x2D])
    }
    func isDigits(_ index: Int, _ count: Int) -> Bool {
      runs[index].kind == .digits && runs[index].bytes.count == count
    }
    if end - timeStart >= 2, isDigits(end - 1, 4), isSign(end - 2) {
      end -= 2
    } else if end - timeStart >= 4, isDigits(end - 1, 2), runs[end - 2].bytes == [0x3A],
      isDigits(end - 3, 2), isSign(end - 4)
    {
      end -= 4
    }
    let offset = end < runs.count
    for run in runs[timeStart..<max(timeStart, end)] {
      let word = String(decoding: run.bytes, as: UTF8.self)
      switch run.kind {
      case .digits:
        switch clockPieces {
        case 0:
          hour = parts.count
          parts.append("HH")
        case 1: parts.append("mm")
        case 2: parts.append("ss")
        default:
          // A fraction after the seconds' dot.
          guard parts.last == "." else { return [] }
          parts.append(String(repeating: "S", count: run.bytes.count))
        }
        clockPieces += 1
      case .letters:
        switch word.lowercased() {
        case "am", "pm":
          guard let hour, parts[hour] == "HH" else { return [] }
          parts[hour] = "h"
          parts.append("a")
        default:
          // A word apart from the numbers (`6:04 Uhr`), not a letter in one (`0x`).
          guard parts.last?.hasSuffix(" ") ?? false else { return [] }
          parts.append("'\(word)'")
        }
      case .other:
        // A quote would start quoted text in the pattern.
        guard !word.contains("'") else { return [] }
        parts.append(word)
      }
    }
    guard clockPieces != 1, !offset || clockPieces >= 2 else { return [] }
    if offset { parts.append("XXX") }
    let rest = parts.joined()
    // Only a pattern that reads the text is named: `25:09` is no time in any pattern.
    return dates.map { $0 + rest }.filter { pattern in
      guard case .success(let format) = make(pattern) else { return false }
      return format.read(text) != nil
    }
  }

  /// The date patterns of three numbers with a separator between each (`runs` begins so):
  /// a year first, or day and month in the order their values allow; none for other shapes.
  private static func separatedDates(_ runs: [(kind: RunKind, bytes: ArraySlice<UInt8>)])
    -> [String]
  {
    let first = runs[0].bytes
    let second = runs[2].bytes
    let third = runs[4].bytes
    let one = String(decoding: runs[1].bytes, as: UTF8.self)
    let two = String(decoding: runs[3].bytes, as: UTF8.self)
    if runs[2].kind == .letters {
      return first.count <= 2 && third.count == 4 ? ["dd\(one)MMM\(two)yyyy"] : []
    }
    if first.count == 4, second.count <= 2, third.count <= 2 {
      return [number(second) > 12 ? "yyyy\(one)dd\(two)MM" : "yyyy\(one)MM\(two)dd"]
    }
    guard first.count <= 2, second.count <= 2, third.count == 4 else { return [] }
    let dayFirst = "dd\(one)MM\(two)yyyy"
    let monthFirst = "MM\(one)dd\(two)yyyy"
    switch (number(first), number(second)) {
    case (13...31, 1...12): return [dayFirst]
    case (1...12, 13...31): return [monthFirst]
    case (1...12, 1...12): return [dayFirst, monthFirst]
    default: return []
    }
  }

  private enum RunKind: Equatable {
    case digits, letters, other

    init(_ byte: UInt8) {
      switch byte {
      case 0x30...0x39: self = .digits
      case 0x41...0x5A, 0x61...0x7A: self = .letters
      default: self = .other
      }
    }
  }

  /// The value of at most two digits; 0 for longer runs, which no day or month has.
  private static func number(_ digits: ArraySlice<UInt8>) -> Int {
    guard digits.count <= 2 else { return 0 }
    // checked: at most two bytes 0…9
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
