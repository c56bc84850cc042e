/// The largest id of a row put into each table that damaged or torn journal lines still
/// show, found by their text since the lines do not parse: each
/// `{"put":"<table>","row":{"id":<digits>` whose digits make an Int below `Int.max` (so that
/// the next id is one too). Only the largest is kept: all of them, for the 3,676,476 puts of
/// a 576 MB torn record, took 29 MB (jrec18).
///
/// The text comes a piece at a time (`scan`, then `finish`), so a torn record of hundreds
/// of megabytes is never held: a put cut by a piece's end is kept (its first bytes, at most
/// `longestName` and a few more) until the next piece decides it, and an id whose digits
/// reach a piece's end goes on in the next. What it finds is what a scan of the whole text
/// finds, but for a table name longer than `longestName` bytes, which no table has.
///
/// Scanned as bytes: a kill while an import streams leaves a torn record of one put per row
/// (346 MB for 4,000,000 rows, wmem17), where a search of the text from each put on took
/// minutes (the record of a million rows still went on after 40 s).
struct MentionedIDs {
  /// The largest id found so far, per table.
  private(set) var largest: [String: Int] = [:]
  /// How many ids were found.
  private(set) var count = 0
  /// The bytes from a put whose table name or text before the id the pieces so far cut.
  private var pending: [UInt8] = []
  /// A put whose digits reached the end of the last piece.
  private var number: Number?
  /// `pending` and the next piece, when a put was cut.
  private var joined: [UInt8] = []

  private struct Number {
    var table: String
    var value = 0
    var digits = 0
    var overflows = false
  }

  /// The longest table name read.
  static let longestName = 1024

  private static let marker = Array("{\"put\":\"".utf8)
  private static let row = Array("\",\"row\":{\"id\":".utf8)

  /// The ids in `text`, scanned in one piece.
  static func scanning(_ text: ArraySlice<UInt8>) -> MentionedIDs {
    var scan = MentionedIDs()
    text.withUnsafeBufferPointer { scan.scan($0) }
    scan.finish()
    return scan
  }

  /// Scans the next piece of the text.
  ///
  /// - Complexity: O(n) in the piece's size, plus the bytes kept from the piece before.
  mutating func scan(_ piece: UnsafeBufferPointer<UInt8>) {
    guard !pending.isEmpty else {
      let stop = scan(piece, final: false)
      pending.append(contentsOf: piece[stop...])
      return
    }
    joined.removeAll(keepingCapacity: true)
    joined.append(contentsOf: pending)
    joined.append(contentsOf: piece)
    pending.removeAll(keepingCapacity: true)
    joined.withUnsafeBufferPointer { text in
      let stop = scan(text, final: false)
      pending.append(contentsOf: text[stop...])
    }
  }

  /// Ends the text (what `largest` and `count` say is final then).
  mutating func finish() {
    if !pending.isEmpty {
      let text = pending
      pending = []
      text.withUnsafeBufferPointer { _ = scan($0, final: true) }
    }
    if let number { record(number) }
    number = nil
  }

  private mutating func record(_ number: Number) {
    guard number.digits > 0, !number.overflows, number.value < .max else { return }
    count += 1
    largest[number.table] = max(largest[number.table] ?? number.value, number.value)
  }

  /// Scans `text` from its start; returns where the bytes left for the next piece start
  /// (`text.count` when none are), always `text.count` when `final`.
  private mutating func scan(_ text: UnsafeBufferPointer<UInt8>, final: Bool) -> Int {
    enum Match { case yes, no, cut }
    func holds(_ part: [UInt8], at start: Int) -> Match {
      for index in part.indices {
        guard start + index < text.count else { return final ? .no : .cut }
        if text[start + index] != part[index] { return .no }
      }
      return .yes
    }
    var position = 0
    func digits(_ number: inout Number) {
      while position < text.count, (0x30...0x39).contains(text[position]) {
        let (times, over) = number.value.multipliedReportingOverflow(by: 10)
        // checked: a digit's value, 0 to 9
        let (sum, overAgain) = times.addingReportingOverflow(Int(text[position] - 0x30))
        if over || overAgain { number.overflows = true }
        number.value = sum
        number.digits += 1
        position += 1
      }
    }
    if var open = number {
      digits(&open)
      if position == text.count && !final {
        number = open
        return text.count
      }
      number = nil
      record(open)
    }
    while position < text.count {
      guard text[position] == 0x7B else {
        position += 1
        continue
      }
      switch holds(Self.marker, at: position) {
      case .cut: return position
      case .no:
        position += 1
        continue
      case .yes: break
      }
      let nameStart = position + Self.marker.count
      let searchEnd = min(text.count, nameStart + Self.longestName + 1)
      var quote = nameStart
      while quote < searchEnd, text[quote] != 0x22 { quote += 1 }
      if quote == searchEnd {
        if searchEnd == text.count {
          // No quote in what is left: no other put either (its text has quotes).
          if final { break }
          return position
        }
        // A name longer than any table's.
        position = nameStart
        continue
      }
      switch holds(Self.row, at: quote) {
      case .cut: return position
      case .no:
        position = nameStart
        continue
      case .yes: break
      }
      // Nothing from the name to the end of the digits can start another put (the name
      // holds no quote, and the row's text none of `{"put"`), so the scan goes on after them.
      var open = Number(
        table: String(
          decoding: UnsafeBufferPointer(rebasing: text[nameStart..<quote]), as: UTF8.self))
      position = quote + Self.row.count
      digits(&open)
      if position == text.count && !final {
        number = open
        return text.count
      }
      record(open)
    }
    return text.count
  }
}
