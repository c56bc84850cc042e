/// What a statistics query computes (HKStatisticsOptions, same raw bits).
public struct StatisticsOptions: OptionSet, Codable, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Per-source values as well as merged ones.
  public static let separateBySource = StatisticsOptions(rawValue: 1)
  /// Average of a discrete type.
  public static let discreteAverage = StatisticsOptions(rawValue: 2)
  /// Minimum of a discrete type.
  public static let discreteMin = StatisticsOptions(rawValue: 4)
  /// Maximum of a discrete type.
  public static let discreteMax = StatisticsOptions(rawValue: 8)
  /// Sum of a cumulative type.
  public static let cumulativeSum = StatisticsOptions(rawValue: 16)
  /// Most recent value of a discrete type.
  public static let mostRecent = StatisticsOptions(rawValue: 32)
  /// Time covered by samples of a cumulative type.
  public static let duration = StatisticsOptions(rawValue: 64)

  static let discreteOnly: StatisticsOptions = [
    .discreteAverage, .discreteMin, .discreteMax, .mostRecent,
  ]
  static let cumulativeOnly: StatisticsOptions = [.cumulativeSum, .duration]

  /// Whether the options suit the type (T2, C1); HealthKit raises an exception otherwise.
  func validate(for type: SampleType) throws(HealthError) {
    switch type.aggregationStyle {
    case .discrete where !isDisjoint(with: StatisticsOptions.cumulativeOnly):
      throw HealthError(
        .errorInvalidArgument,
        "\(type.rawValue) is discrete; use discreteAverage, discreteMin, discreteMax or mostRecent")
    case .cumulative where !isDisjoint(with: StatisticsOptions.discreteOnly):
      throw HealthError(
        .errorInvalidArgument, "\(type.rawValue) is cumulative; use cumulativeSum or duration")
    case .none:
      throw HealthError(
        .errorInvalidArgument, "statistics need a quantity type, not workouts or correlations")
    default:
      return
    }
  }
}
