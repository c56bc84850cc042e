import Foundation

/// One factor of a unit: a root with its prefix and, for moles, its molar mass, e.g. `mg`,
/// `mmol<180.15588000005408>`. Factors are identified by how they are written.
struct UnitFactor: Sendable {
  let root: RootUnit
  let prefix: HKMetricPrefix
  /// Grams per mole, for `mol` only.
  let molarMass: Double?
  /// The factor as a unit string writes it.
  let symbol: String

  init(_ root: RootUnit, prefix: HKMetricPrefix = .none, molarMass: Double? = nil) {
    self.root = root
    self.prefix = prefix
    self.molarMass = molarMass
    var symbol = prefix.symbol + root.symbol
    if let molarMass { symbol += "<" + UnitFactor.format(molarMass) + ">" }
    self.symbol = symbol
  }

  /// The size's coefficient (the power of ten is in `decimalExponent`).
  var coefficient: Double { root.coefficient * (molarMass ?? 1) }

  /// The size's power of ten, prefix included.
  var decimalExponent: Int { root.decimalExponent + prefix.decimalExponent }

  /// A molar mass as unit strings print it: the shortest text that reads back as the same
  /// Double, without a trailing `.0`.
  static func format(_ value: Double) -> String {
    let text = "\(value)"
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}

/// A factor with its (non-zero) power.
struct PoweredFactor: Sendable {
  let factor: UnitFactor
  let exponent: Int
}
