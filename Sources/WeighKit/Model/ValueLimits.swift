/// The documented range of every kind of value weigh accepts, wherever it enters: the
/// language, the importers, the store, the command line and the simulations.
///
/// A value outside its range is refused where it enters (with the position and the range
/// in the message), so that no later arithmetic or conversion can overflow. Ranges are
/// chosen so that every sum or difference weigh computes from values inside them stays far
/// inside `Int64` and inside the doubles that hold integers exactly (2^53).
///
/// | value | range | unit |
/// |---|---|---|
/// | body mass | > 0 … 1,000 | kg |
/// | blood glucose | > 0 … 10,000 | mg/dL |
/// | step count (one sample) | 0 … 1,000,000 | steps |
/// | active energy (one sample) | 0 … 100,000 | kcal |
/// | exercise time (one sample) | 0 … 1,440 | min |
/// | height | 0.3 … 3 | m |
/// | instant | 1900-01-01T00:00:00Z … 9999-12-31T23:59:59Z | s since 1970 |
/// | duration | 0 … 1,000 years (365.2425 days each) | s |
/// | entry number | 1 … 2,147,483,647 | |
/// | revision | 1 … 2,147,483,647 | |
/// | sync version | 0 … 2^53 − 1 | |
/// | anchor, store sequence | 0 … 2^53 − 1 | |
public enum ValueLimits {
  /// Body mass in kilograms (docs/language.md: > 0 and ≤ 1000 kg). The lower bound is open.
  public static let kilograms: ClosedRange<Double> = 0...1000
  /// Blood glucose in mg/dL; the lower bound is open.
  public static let milligramsPerDeciliter: ClosedRange<Double> = 0...10_000
  /// Steps in one sample.
  public static let steps: ClosedRange<Double> = 0...1_000_000
  /// Active energy in one sample, in kcal.
  public static let kilocalories: ClosedRange<Double> = 0...100_000
  /// Exercise time in one sample, in minutes.
  public static let exerciseMinutes: ClosedRange<Double> = 0...1440
  /// Height in metres.
  public static let heightMeters: ClosedRange<Double> = 0.3...3
  /// Instants, in seconds since 1970-01-01T00:00:00Z: 1900-01-01 to the end of 9999.
  public static let instant: ClosedRange<Int64> = -2_208_988_800...253_402_300_799
  /// Durations in seconds: up to 1,000 Gregorian years.
  public static let durationSeconds: ClosedRange<Int64> = 0...31_556_952_000
  /// Entry numbers (`#12`).
  public static let entryNumber: ClosedRange<Int> = 1...2_147_483_647
  /// An entry's revision.
  public static let revision: ClosedRange<Int> = 1...2_147_483_647
  /// The version that goes with a sync identifier.
  public static let syncVersion: ClosedRange<Int64> = 0...9_007_199_254_740_991
  /// Anchors and store sequence numbers.
  public static let sequence: ClosedRange<Int64> = 0...9_007_199_254_740_991
}
