/// What a unit measures, as integer powers of independent base dimensions.
///
/// Two units are compatible (convertible) exactly when their dimensions are equal. Derived SI
/// units reduce to base dimensions (joule = mass·length²·time⁻², pascal, watt, hertz, litre),
/// so `kcal/hr` is compatible with `W` and `L` with `m^3`. Units HealthKit keeps apart have a
/// dimension of their own: conductance, electric potential, angle, illuminance, scalar counts
/// (`count`, `%`), international units, hearing level, effort score, diopters and prism
/// diopters.
struct UnitDimension: Hashable, Sendable {
  /// The independent dimensions, one slot each in `exponents`.
  enum Base: Int, CaseIterable {
    case mass, length, time, temperature, conductance, potential, angle, illuminance, scalar
    case pharmacology, hearingLevel, effort, diopter, prismDiopter
  }

  /// The power of each base dimension, indexed by `Base.rawValue`.
  private(set) var exponents: [Int]

  /// The dimension of a plain number (the null unit).
  static let none = UnitDimension(exponents: Array(repeating: 0, count: Base.allCases.count))

  private init(exponents: [Int]) { self.exponents = exponents }

  /// The dimension with the given powers; unnamed bases have power zero.
  init(_ powers: [Base: Int]) {
    var exponents = UnitDimension.none.exponents
    for (base, power) in powers { exponents[base.rawValue] = power }
    self.exponents = exponents
  }

  /// One base dimension to the first power.
  init(_ base: Base) { self.init([base: 1]) }

  /// `self` times `other` raised to `power`; saturates instead of overflowing, which only
  /// absurd exponents (beyond what a unit string may hold) can reach.
  func adding(_ other: UnitDimension, times power: Int) -> UnitDimension {
    var result = self
    for index in exponents.indices {
      let (product, productOverflow) = other.exponents[index].multipliedReportingOverflow(
        by: power)
      let scaled = productOverflow ? (power < 0 ? Int.min : Int.max) : product
      let (sum, sumOverflow) = exponents[index].addingReportingOverflow(scaled)
      result.exponents[index] = sumOverflow ? (scaled < 0 ? Int.min : Int.max) : sum
    }
    return result
  }

  static let mass = UnitDimension(.mass)
  static let length = UnitDimension(.length)
  static let time = UnitDimension(.time)
  static let volume = UnitDimension([.length: 3])
  static let energy = UnitDimension([.mass: 1, .length: 2, .time: -2])
  static let pressure = UnitDimension([.mass: 1, .length: -1, .time: -2])
  static let power = UnitDimension([.mass: 1, .length: 2, .time: -3])
  static let frequency = UnitDimension([.time: -1])
}
