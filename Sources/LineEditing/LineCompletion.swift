/// One candidate of Tab completion: the word that replaces the one being typed, and what
/// it stands for, listed beside it.
public struct LineCompletion: Equatable, Sendable {
  public var word: String
  /// Shown beside the word when the candidates are listed; empty for none.
  public var detail: String

  public init(_ word: String, detail: String = "") {
    self.word = word
    self.detail = detail
  }
}
