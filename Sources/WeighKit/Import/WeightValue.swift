import Foundation

/// Reads one weight cell: a number in a stated unit, converted exactly and checked.
enum WeightValue {
  /// Kilograms of `text` written in `unit`, or why not.
  static func kilograms(_ text: String?, unit: MassUnit, line: Int) throws(ImportRejection)
    -> Double
  {
    let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces)
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

  /// The unit in a header such as `Weight (kg)` or `weight (lbs)`.
  static func unit(inHeader header: String) -> MassUnit? {
    guard let open = header.lastIndex(of: "("), let close = header.lastIndex(of: ")"),
      open < close
    else { return nil }
    return unit(named: String(header[header.index(after: open)..<close]))
  }

  /// `kg`, `lb`, `lbs`, `g`, `st` (any case).
  static func unit(named name: String) -> MassUnit? {
    switch name.trimmingCharacters(in: .whitespaces).lowercased() {
    case "kg", "kgs", "kilograms": .kg
    case "lb", "lbs", "pounds": .lb
    case "g", "grams": .g
    case "st", "stone": .st
    default: nil
    }
  }
}
