/// Which entries a command looks at: `last 5`, `today`, `week`, `month`, `since <when>`,
/// `from <when> to <when>`, or a duration back from now.
public enum EntryRange: Equatable, Sendable {
  case all
  case last(Int)
  case today
  /// Today and the six days before.
  case week
  /// Today and the 29 days before.
  case month
  case since(Int64)
  /// From an instant up to and including another.
  case between(Int64, Int64)
  case back(TimeSpan)

  static let keywords = ["last", "today", "week", "month", "since", "from"]

  /// Reads an optional range; `.all` when the line ends here.
  static func parse(_ cursor: inout ArgumentCursor) throws(Diagnostic) -> EntryRange {
    guard let token = cursor.peek() else { return .all }
    if cursor.take("last") {
      return .last(try cursor.readInteger("a number of entries such as 5", range: 1...Int.max))
    }
    if cursor.take("today") { return .today }
    if cursor.take("week") { return .week }
    if cursor.take("month") { return .month }
    if cursor.take("since") { return .since(try cursor.readInstant().instant) }
    if cursor.take("from") {
      let start = try cursor.readInstant().instant
      try cursor.expect("to", in: "from <when> to <when>")
      let endsOnDate = Self.isBareDate(cursor.peek())
      var end = try cursor.readInstant().instant
      // `to 2026-01-07` includes that whole day.
      if endsOnDate, cursor.tokens[cursor.index - 1].kind == .word,
        !cursor.tokens[cursor.index - 1].text.contains(":")
      {
        let day = cursor.context.clock.local(end).date
        end = cursor.context.clock.startOfDay(CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1)) - 1
      }
      guard end >= start else {
        throw cursor.error("the range ends before it starts; swap from and to", at: token)
      }
      return .between(start, end)
    }
    CompletionProbe.offer(.quantity(.time), if: token)
    if let word = token.kind == .word ? token.text : nil, NumberPrefix(word) != nil {
      return .back(
        try cursor.readDuration(
          "a range: last <n>, today, week, month, since <when>, from <when> to <when> or a duration such as 2w"
        ))
    }
    var message =
      "expected a range: last <n>, today, week, month, since <when>, from <when> to <when> or a duration such as 2w; \(cursor.got(token))"
    if token.kind == .word,
      let guess = Suggestion.closest(to: token.text.lowercased(), among: keywords)
    {
      message += "; did you mean \"\(guess)\"?"
    }
    throw cursor.error(message, at: token)
  }

  private static func isBareDate(_ token: Token?) -> Bool {
    guard let token, token.kind == .word else { return false }
    let word = token.text.lowercased()
    return word == "today" || word == "yesterday"
      || (token.text.utf8.count == 10 && token.text.contains("-"))
  }

  /// The entries in this range, oldest first (ties by number).
  func select(from entries: [Entry], in session: Session) -> [Entry] {
    select(
      entries.sorted { ($0.instant, $0.id) < ($1.instant, $1.id) }, instant: \.instant, in: session)
  }

  /// The items in this range, oldest first; `items` come in the order ties keep.
  func select<Item>(_ items: [Item], instant: (Item) -> Int64, in session: Session) -> [Item] {
    let sorted = items.enumerated().sorted {
      (instant($0.element), $0.offset) < (instant($1.element), $1.offset)
    }
    .map(\.element)
    switch self {
    case .all: return sorted
    case .last(let count): return Array(sorted.suffix(count))
    case .today:
      let (start, end) = Self.today(in: session)
      return sorted.filter { instant($0) >= start && instant($0) < end }
    case .between(let start, let end):
      return sorted.filter { instant($0) >= start && instant($0) <= end }
    case .week, .month, .since, .back:
      let start = earliestInstant(in: session) ?? ValueLimits.instant.lowerBound
      return sorted.filter { instant($0) >= start }
    }
  }

  /// The earliest instant this range can select; nil for `all` and `last N`, which depend on
  /// what there is. A reader that can seek by time (Health's start-date index) starts there.
  func earliestInstant(in session: Session) -> Int64? {
    let today = session.zone.local(session.now).date
    func since(daysBack: Int64) -> Int64 {
      session.zone.startOfDay(CivilDate(daysSinceEpoch: today.daysSinceEpoch - daysBack))
    }
    switch self {
    case .all, .last: return nil
    case .today: return Self.today(in: session).start
    case .week: return since(daysBack: 6)
    case .month: return since(daysBack: 29)
    case .since(let start), .between(let start, _): return start
    case .back(let span): return session.now - span.seconds
    }
  }

  /// Today in the session's zone: its first instant and the next day's.
  private static func today(in session: Session) -> (start: Int64, end: Int64) {
    let today = session.zone.local(session.now).date
    return (
      session.zone.startOfDay(today),
      session.zone.startOfDay(CivilDate(daysSinceEpoch: today.daysSinceEpoch + 1))
    )
  }
}
