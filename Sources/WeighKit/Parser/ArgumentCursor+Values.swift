/// A reference to an entry of the app's log.
public enum EntryReference: Equatable, Sendable {
  /// `#12`
  case number(Int)
  /// `last`: the entry `list` shows last.
  case last
}

extension ArgumentCursor {
  /// Reads a quantity of one of `kinds`, in any unit of those kinds; compound `11st 4lb`
  /// and `5ft 6in` read as one quantity.
  public mutating func readQuantity(
    _ kinds: Set<QuantityKind>, expected: String
  ) throws(Diagnostic) -> Quantity {
    try readQuantity(kinds, expected: expected, number: nil)
  }

  /// `readQuantity(_:expected:)`, given the next word's number when it was already read.
  private mutating func readQuantity(
    _ kinds: Set<QuantityKind>, expected: String, number parsed: NumberPrefix?
  ) throws(Diagnostic) -> Quantity {
    let first = peek()
    for kind in QuantityKind.allCases where kinds.contains(kind) {
      CompletionProbe.offer(.quantity(kind), if: first)
    }
    guard let first, first.kind == .word, let number = parsed ?? NumberPrefix(first.text) else {
      throw error("expected \(expected), \(got(first))", at: first)
    }
    index += 1
    var unitText = String(number.unit).lowercased()
    var last = first
    if unitText.isEmpty {
      for kind in QuantityKind.allCases where kinds.contains(kind) {
        CompletionProbe.offer(.unit(kind), if: peek())
      }
    }
    if unitText.isEmpty {
      if let next = peek(), next.kind == .word,
        UnitDefinition.table[next.text.lowercased()] != nil
          || UnitDefinition.durationWords[next.text.lowercased()] != nil
      {
        unitText = next.text.lowercased()
        last = next
        index += 1
      } else {
        throw Diagnostic("expected \(expected), \(got(first))", at: span(first))
      }
    }
    guard let unit = UnitDefinition.table[unitText] ?? Self.spelledDuration(unitText) else {
      throw Diagnostic(
        "unknown unit \"\(unitText)\" in \"\(first.text)\"; expected \(expected)",
        at: span(from: first, to: last))
    }
    guard kinds.contains(unit.kind) else {
      throw Diagnostic("expected \(expected), \(got(first))", at: span(from: first, to: last))
    }
    guard number.value.isFinite, (number.value * unit.factor).isFinite else {
      throw Diagnostic(
        "the number in \"\(first.text)\" is too large; \(expected)", at: span(from: first, to: last)
      )
    }
    var quantity = Quantity(value: number.value * unit.factor, kind: unit.kind, unit: unitText)
    // 11st 4lb and 5ft 6in are one quantity.
    let tail: String? = unitText == "st" ? "lb" : unitText == "ft" ? "in" : nil
    if let tail, let next = peek(), next.kind == .word, let part = NumberPrefix(next.text),
      part.value >= 0, part.value.isFinite
    {
      var partUnit = String(part.unit).lowercased()
      var consumed = 1
      if partUnit.isEmpty, let after = peek(1), after.kind == .word {
        partUnit = after.text.lowercased()
        consumed = 2
      }
      if partUnit == tail || (tail == "lb" && partUnit == "lbs") {
        let definition = UnitDefinition.table[partUnit]!
        quantity.value += part.value * definition.factor
        quantity.unit = "\(unitText)+\(partUnit)"
        index += consumed
      }
    }
    return quantity
  }

  private static func spelledDuration(_ unit: String) -> UnitDefinition? {
    UnitDefinition.durationWords[unit].map { UnitDefinition(kind: .time, factor: $0) }
  }

  /// Reads a weight (`68.5kg`, `151.2 lbs`, `11st 4lb`) in kilograms; a bare number (`181.2`)
  /// is read in the display unit.
  public mutating func readWeight(_ expected: String = "a weight such as 68.5kg") throws(Diagnostic)
    -> (kilograms: Double, span: SourceSpan)
  {
    let start = peek()
    let number = start.flatMap { $0.kind == .word ? NumberPrefix($0.text) : nil }
    if let start, let number, number.unit.isEmpty, !nextIsUnit(after: start) {
      // `70 kg` is a weight too: where the next word is being completed, units may come.
      CompletionProbe.offer(.unit(.mass), if: peek(1))
      let kilograms = context.unit.mass.toKilograms(number.value)
      guard number.value.isFinite, kilograms.isFinite else {
        throw Diagnostic(
          "the number in \"\(start.text)\" is too large; \(expected)", at: span(start))
      }
      index += 1
      return (kilograms, span(start))
    }
    let quantity = try readQuantity([.mass], expected: expected, number: number)
    return (quantity.value, span(from: start!, to: tokens[index - 1]))
  }

  /// Whether the word after `token` is a unit (`68.5 kg`, `3 days`).
  private func nextIsUnit(after token: Token) -> Bool {
    guard let next = peek(1), next.kind == .word else { return false }
    let word = next.text.lowercased()
    return UnitDefinition.table[word] != nil || UnitDefinition.durationWords[word] != nil
  }

  /// Reads a length (`165cm`, `1.65m`, `5ft 6in`) in metres.
  public mutating func readLength() throws(Diagnostic) -> Double {
    try readQuantity([.length], expected: "a height such as 165cm, 1.65m or 5ft 6in").value
  }

  /// Reads a duration (`90s`, `15min`, `6h`, `1d`, `2w`, `3 days`).
  public mutating func readDuration(_ expected: String = "a duration such as 1d, 6h or 15min")
    throws(Diagnostic) -> TimeSpan
  {
    let start = peek()
    let quantity = try readQuantity([.time], expected: expected)
    guard quantity.value >= 0 else {
      throw error("a duration cannot be negative; write a positive one such as 1d", at: start)
    }
    guard let span = TimeSpan(checkedSeconds: quantity.value) else {
      throw Diagnostic(
        "a duration must be at most \(TimeSpan.maximumText); write a shorter one",
        at: self.span(from: start!, to: tokens[index - 1]))
    }
    return span
  }

  /// Reads a rate: a quantity of `kind` per duration (`-0.5kg/w`, `-0.1 kg/d`).
  public mutating func readRate(_ kind: QuantityKind, expected: String) throws(Diagnostic) -> Rate {
    let first = peek()
    CompletionProbe.offer(.rate(kind), if: first)
    guard let first, first.kind == .word, let number = NumberPrefix(first.text) else {
      throw error("expected \(expected), \(got(first))", at: first)
    }
    index += 1
    var unitText = String(number.unit).lowercased()
    var last = first
    if unitText.isEmpty, let next = peek(), next.kind == .word, next.text.contains("/") {
      unitText = next.text.lowercased()
      last = next
      index += 1
    }
    let parts = unitText.split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2, let unit = UnitDefinition.table[parts[0]], unit.kind == kind,
      let per = UnitDefinition.durationWords[parts[1]]
    else {
      throw Diagnostic("expected \(expected), \(got(first))", at: span(from: first, to: last))
    }
    let perSecond = number.value * unit.factor / per
    guard perSecond.isFinite else {
      throw Diagnostic(
        "the number in \"\(first.text)\" is too large; \(expected)", at: span(from: first, to: last)
      )
    }
    return Rate(perSecond: perSecond, kind: kind)
  }

  /// Reads a whole number.
  public mutating func readInteger(_ expected: String, range: ClosedRange<Int>? = nil)
    throws(Diagnostic) -> Int
  {
    let token = peek()
    CompletionProbe.offer(.integer, if: token)
    // checked: parses text, nil when out of range
    guard let token, token.kind == .word, let value = Int(token.text) else {
      throw error("expected \(expected), \(got(token))", at: token)
    }
    if let range, !range.contains(value) {
      let bounds =
        range.upperBound == Int.max
        ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
      throw error("expected \(expected) \(bounds), got \(value)", at: token)
    }
    index += 1
    return value
  }

  /// Reads a string: a quoted string or a bare word.
  public mutating func readString(_ expected: String) throws(Diagnostic) -> String {
    let token = peek()
    guard let token, token.kind == .string || token.kind == .word else {
      throw error("expected \(expected), \(got(token))", at: token)
    }
    index += 1
    return token.text
  }

  /// Reads a file name (a quoted string or a bare word); completion offers files there,
  /// those ending in one of `extensions` (without the dot) when any are given.
  public mutating func readPath(_ expected: String, extensions: [String] = []) throws(Diagnostic)
    -> String
  {
    CompletionProbe.offer(.file(extensions: extensions), if: peek())
    return try readString(expected)
  }

  /// Reads a Health sample reference: a UUID, a prefix of one, or `last` (checked when the
  /// command runs, against Health's samples).
  public mutating func readSampleReference() throws(Diagnostic) -> String {
    CompletionProbe.offer(.sample, if: peek())
    return try readString("a sample such as 3f2a (a UUID prefix) or last")
  }

  /// Reads `#12` or `last`.
  public mutating func readEntryReference() throws(Diagnostic) -> (EntryReference, SourceSpan) {
    let token = peek()
    CompletionProbe.offer(.entry, if: token)
    // checked: parses text, nil when out of range
    if let token, token.kind == .entryReference, let number = Int(token.text) {
      index += 1
      return (.number(number), span(token))
    }
    if let token, token.isWord("last") {
      index += 1
      return (.last, span(token))
    }
    var message = "expected an entry such as #12 or last, \(got(token))"
    // A shell takes `#12` to the end of the line as a comment: `weigh delete #12` arrives
    // as `delete`.
    if token == nil, context.file == ParseContext.commandLine {
      message += "; a shell reads # as a comment: quote it, '#12'"
    }
    throw error(message, at: token)
  }
}
