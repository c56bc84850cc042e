extension ByteCursor {
  /// The digits `description` writes for a positive `value` from 0.001 below 2^53 that is
  /// not whole and for which `shortestDecimal` found none (its shortest text has more
  /// fraction digits than can tell the Doubles near it apart): the decimal of one fraction
  /// digit more, nearest to the exact value, found by exact integer arithmetic; nil for the
  /// few values left to `description` (below).
  ///
  /// Why this is `description`'s text: `shortestDecimal` tried every scale up to `top`, the
  /// largest whose decimals are further apart than `value.ulp`, and found no decimal that
  /// reads back. At scale `top` + 1 they are closer than an ulp, so the nearest lies within
  /// half an ulp of `value` and reads back (when `value`'s significand is not a power of
  /// two: the Double below it is then only half an ulp away, and the bound is a quarter;
  /// those are left to `description`). So the shortest texts have `top` + 1 fraction
  /// digits, and `description` writes the one of them closest to `value`: the nearest. An
  /// exact tie between two is left to `description` too.
  ///
  /// Fitbit's weights, pounds times 0.453 592 37 in kilograms, often need 17 digits:
  /// through `description` (a `String` made and freed) they cost 22 M instructions of a
  /// 100,000-log import's 785 M (callgrind, wstore11).
  static func nearestLongDecimal(_ value: Double) -> (digits: UInt64, scale: Int)? {
    let significand = value.significandBitPattern
    guard value.isNormal, significand != 0 else { return nil }
    let top = largestSparseScale(value)
    guard top < 17 else { return nil }
    let scale = top + 1
    // value = whole × 2^exponent exactly, whole < 2^53; value × 10^scale is
    // whole × 5^scale × 2^(exponent + scale), with whole × 5^scale below 2^93.
    let whole = significand | 1 << 52
    // checked: a finite Double's exponent is within -1074...1023
    let exponent = Int(value.exponent) - 52
    let product = whole.multipliedFullWidth(by: powersOfFive[scale])
    let shift = -(exponent + scale)
    // The nearest decimal lies within one of value × 10^scale < 2^53 × ulp × 10^scale
    // < 2^53 × 10: the shifted product fits 64 bits (checked below anyway).
    guard shift > 0, shift < 128 else { return nil }
    var quotient: UInt64
    let remainderHigh: UInt64  // the bits shifted out, as a fraction of 2^64 from the top
    let remainderLow: UInt64
    if shift < 64 {
      guard product.high >> shift == 0 else { return nil }
      quotient = product.low >> shift | product.high << (64 - shift)
      remainderHigh = product.low << (64 - shift)
      remainderLow = 0
    } else if shift == 64 {
      quotient = product.high
      remainderHigh = product.low
      remainderLow = 0
    } else {
      quotient = product.high >> (shift - 64)
      remainderHigh = product.high << (128 - shift) | product.low >> (shift - 64)
      remainderLow = product.low << (128 - shift)
    }
    let half: UInt64 = 1 << 63
    if remainderHigh == half && remainderLow == 0 { return nil }  // a tie
    if remainderHigh >= half { quotient += 1 }
    // A last digit 0 would mean a shorter decimal, which `shortestDecimal` would have found.
    guard quotient % 10 != 0, quotient < 1 << 63 else { return nil }
    return (quotient, scale)
  }

  /// 5^0 … 5^18 (5^18 < 2^42).
  private static let powersOfFive: [UInt64] = {
    var powers: [UInt64] = [1]
    for _ in 0..<18 { powers.append(powers.last! * 5) }
    return powers
  }()
}
