import Foundation

/// Reads one weight cell: a number in a stated unit, converted exactly and checked.
enum WeightValue {
  /// Kilograms of `text` written in `unit`, or why not.
  static func kilograms(_ text: String?, unit: MassUnit, line: Int) throws(ImportRejection)
    -> Double
  {
    let trimmed = (text ?? "").trimmedWhitespace
    guard !trimmed.isEmpty else {
      throw ImportRejection(line: line, reason: "no weight in this row")
    }
    guard let value = DecimalText.parse(trimmed) else {
      throw ImportRejection(
        line: line,
        reason: "weight \(trimmed.debugDescription) is not a decimal number such as 71.25")
    }
    return try ImportedWeight.validate(
      kilograms: unit.toKilograms(value), written: trimmed, unit: unit, line: line)
  }

  /// ``kilograms(_:unit:line:)`` of a cell's UTF-8 bytes, reading the number from the bytes.
  static func kilograms(utf8 cell: ArraySlice<UInt8>, unit: MassUnit, line: Int)
    throws(ImportRejection) -> Double
  {
    // The bytes in memory, trimmed of spaces and tabs and read without a slice made or
    // checked at every byte. `DecimalText` reads ASCII bytes only, so a cell it reads is
    // ASCII, as the paths below ask: the scan for a byte past ASCII is left to them (it cost
    // about 40 instructions a row under callgrind).
    let read: Double? = cell.withUnsafeBufferPointer { bytes in
      var start = 0
      var end = bytes.count
      while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
      while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
      return DecimalText.parse(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
    if let value = read {
      return try ImportedWeight.validate(
        kilograms: unit.toKilograms(value),
        written: String(decoding: trimmedASCII(cell) ?? [], as: UTF8.self), unit: unit,
        line: line)
    }
    guard let trimmed = trimmedASCII(cell) else {
      return try kilograms(String(decoding: cell, as: UTF8.self), unit: unit, line: line)
    }
    guard !trimmed.isEmpty else {
      throw ImportRejection(line: line, reason: "no weight in this row")
    }
    guard let value = DecimalText.parse(utf8: trimmed) else {
      let text = String(decoding: trimmed, as: UTF8.self)
      throw ImportRejection(
        line: line,
        reason: "weight \(text.debugDescription) is not a decimal number such as 71.25")
    }
    return try ImportedWeight.validate(
      kilograms: unit.toKilograms(value), written: String(decoding: trimmed, as: UTF8.self),
      unit: unit, line: line)
  }

  /// The value of a weight written with a decimal comma (`81,6`, a spreadsheet kept by hand
  /// in a language that writes them: a public repository's `peso.csv` with `;` between
  /// fields, and a French sheet whose comma-separated cells quote them, `"99,1"`): digits,
  /// one comma, one to three digits. Nil for any other cell, and for `1,050` in a unit where
  /// 1050 is a weight too (pounds): that comma may separate thousands, and is not guessed.
  static func decimalComma(_ cell: ArraySlice<UInt8>, unit: MassUnit) -> Double? {
    guard let trimmed = trimmedASCII(cell), let comma = trimmed.firstIndex(of: 0x2C) else {
      return nil
    }
    let whole = trimmed[..<comma]
    let fraction = trimmed[(comma + 1)...]
    let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
    guard (1...4).contains(whole.count), (1...3).contains(fraction.count),
      whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit),
      let value = DecimalText.parse(utf8: whole + [0x2E] + fraction)
    else { return nil }
    if fraction.count == 3, let thousands = DecimalText.parse(utf8: whole + fraction),
      Measure.mass.contains(unit.toKilograms(thousands))
    {
      return nil
    }
    return value
  }

  /// `cell` without the spaces and tabs around it (what `trimmingCharacters(in:
  /// .whitespaces)` removes from ASCII text); nil when the cell holds a byte past ASCII, whose
  /// text the caller trims as a string.
  static func trimmedASCII(_ cell: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    guard !cell.contains(where: { $0 >= 0x80 }) else { return nil }
    var trimmed = cell
    while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed.removeFirst() }
    while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed.removeLast() }
    return trimmed
  }

  /// Whether a cell is empty or only white space.
  static func isBlank(_ cell: ArraySlice<UInt8>) -> Bool {
    if let trimmed = trimmedASCII(cell) { return trimmed.isEmpty }
    return String(decoding: cell, as: UTF8.self).trimmingCharacters(in: .whitespaces).isEmpty
  }

  /// The unit in a header such as `Weight (kg)` or `weight (lbs)`.
  static func unit(inHeader header: String) -> MassUnit? {
    guard let open = header.lastIndex(of: "("), let close = header.lastIndex(of: ")"),
      open < close
    else { return nil }
    return unit(named: String(header[header.index(after: open)..<close]))
  }

  /// ``unit(named:)`` of ASCII bytes, without making a string: the names' bytes compared
  /// with the trimmed bytes, letters of either case; nil for bytes past ASCII too.
  static func unit(named bytes: ArraySlice<UInt8>) -> MassUnit? {
    guard let trimmed = trimmedASCII(bytes) else { return nil }
    for (name, unit) in unitNames where name.count == trimmed.count {
      let same = zip(name, trimmed).allSatisfy { letter, byte in
        byte == letter || ((0x41...0x5A).contains(byte) && byte | 0x20 == letter)
      }
      if same { return unit }
    }
    return nil
  }

  /// The names ``unit(named:)`` reads, lower case.
  private static let unitNames: [([UInt8], MassUnit)] = {
    let names: [(String, MassUnit)] = [
      ("kg", .kg), ("kgs", .kg), ("kilograms", .kg), ("lb", .lb), ("lbs", .lb), ("pounds", .lb),
      ("g", .g), ("grams", .g), ("st", .st), ("stone", .st),
    ]
    return names.map { (Array($0.0.utf8), $0.1) }
  }()

  /// `kg`, `lb`, `lbs`, `g`, `st` (any case).
  static func unit(named name: String) -> MassUnit? {
    switch name.trimmedWhitespace.lowercased() {
    case "kg", "kgs", "kilograms": .kg
    case "lb", "lbs", "pounds": .lb
    case "g", "grams": .g
    case "st", "stone": .st
    default: nil
    }
  }
}

extension String {
  /// `trimmingCharacters(in: .whitespaces)`, without Foundation's round trip through UTF-16
  /// when there is nothing to trim or the text is ASCII (under callgrind, that round trip was
  /// two fifths of a Garmin import's instructions).
  var trimmedWhitespace: String {
    let utf8 = self.utf8
    guard let first = utf8.first, let last = utf8.last else { return self }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    // An ASCII byte that is not a space at each end: the ends are not white space.
    if first < 0x80, last < 0x80, !isSpace(first), !isSpace(last) { return self }
    guard utf8.allSatisfy({ $0 < 0x80 }) else {
      return trimmingCharacters(in: .whitespaces)
    }
    let bytes = Array(utf8)
    guard let start = bytes.firstIndex(where: { !isSpace($0) }),
      let end = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: bytes[start...end], as: UTF8.self)
  }
}
