import Synchronization

/// Something the grammar accepts as the next word, as the parser reports it while it
/// reads a line that ends in a probe token (the word being completed).
public enum NextWord: Hashable, Sendable {
  /// A literal word: a keyword, a setting, a fact.
  case keyword(String)
  /// A command word.
  case command
  /// A number with a unit of this kind (`68.5kg`).
  case quantity(QuantityKind)
  /// A unit word after a bare number (`68.5 kg`).
  case unit(QuantityKind)
  /// A quantity of this kind per duration (`-0.5kg/w`).
  case rate(QuantityKind)
  /// A whole number.
  case integer
  /// An instant: `now`, `today`, a date, a time.
  case instant
  /// A time after a date (`2026-01-03 07:30`).
  case time
  /// A calendar date.
  case date
  /// An entry of the app's log: `#12` or `last`.
  case entry
  /// A Health sample: a UUID prefix or `last`.
  case sample
  /// A file name, preferring these extensions (empty: any file).
  case file(extensions: [String])
  /// An IANA time zone name.
  case timeZone
}

/// Collects what the parser would accept at the probe token, in the order it asks.
///
/// The parser is the grammar: completion parses the line before the cursor with a probe
/// token in place of the word being typed, and every reader that looks at the probe says
/// what it would have accepted there.
final class CompletionProbe: Sendable {
  /// The probe of the parse running on this task, if it is a completion parse.
  @TaskLocal static var current: CompletionProbe?

  private let state = Mutex<[NextWord]>([])

  /// Records one thing the grammar accepts next (once, in first-asked order).
  func offer(_ nextWord: NextWord) {
    state.withLock { if !$0.contains(nextWord) { $0.append(nextWord) } }
  }

  /// What was offered, in the order the parser asked.
  var nextWords: [NextWord] { state.withLock { $0 } }

  /// Records `nextWord` when `token` is the probe; returns whether it was.
  @discardableResult
  static func offer(_ nextWord: NextWord, if token: Token?) -> Bool {
    guard let token, token.kind == .probe else { return false }
    current?.offer(nextWord)
    return true
  }
}
