/// "Did you mean" hints: the closest candidate by edit distance.
public enum Suggestion {
  /// The candidate closest to `word`, when it is close enough to be a likely typo.
  public static func closest(to word: String, among candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate)
      if distance < (best?.1 ?? .max) { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let allowed = max(1, min(word.count, candidate.count) / 3)
    let isPrefix = word.count >= 2 && candidate.hasPrefix(word)
    return distance <= allowed || isPrefix ? candidate : nil
  }

  /// Levenshtein distance, counting a swap of two neighbours as one edit.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
