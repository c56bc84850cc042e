/// Prefixes that can be added to SI units to change the order of magnitude.
///
/// The raw values are HealthKit's: `femto` came last (iOS 13) and so has the highest value.
public enum HKMetricPrefix: Int, Sendable {
  /// No prefix: the base unit itself.
  case none = 0
  /// 10⁻¹² (`p`).
  case pico = 1
  /// 10⁻⁹ (`n`).
  case nano = 2
  /// 10⁻⁶ (`mc`).
  case micro = 3
  /// 10⁻³ (`m`).
  case milli = 4
  /// 10⁻² (`c`).
  case centi = 5
  /// 10⁻¹ (`d`).
  case deci = 6
  /// 10¹ (`da`).
  case deca = 7
  /// 10² (`h`).
  case hecto = 8
  /// 10³ (`k`).
  case kilo = 9
  /// 10⁶ (`M`).
  case mega = 10
  /// 10⁹ (`G`).
  case giga = 11
  /// 10¹² (`T`).
  case tera = 12
  /// 10⁻¹⁵ (`f`).
  case femto = 13
}

extension HKMetricPrefix {
  /// Every prefix, in raw-value order.
  static let all: [HKMetricPrefix] = [
    .none, .pico, .nano, .micro, .milli, .centi, .deci, .deca, .hecto, .kilo, .mega, .giga,
    .tera, .femto,
  ]

  /// How the prefix is written in a unit string (`mc` for micro, as HealthKit spells it).
  var symbol: String {
    switch self {
    case .none: ""
    case .pico: "p"
    case .nano: "n"
    case .micro: "mc"
    case .milli: "m"
    case .centi: "c"
    case .deci: "d"
    case .deca: "da"
    case .hecto: "h"
    case .kilo: "k"
    case .mega: "M"
    case .giga: "G"
    case .tera: "T"
    case .femto: "f"
    }
  }

  /// The power of ten the prefix stands for.
  var decimalExponent: Int {
    switch self {
    case .none: 0
    case .pico: -12
    case .nano: -9
    case .micro: -6
    case .milli: -3
    case .centi: -2
    case .deci: -1
    case .deca: 1
    case .hecto: 2
    case .kilo: 3
    case .mega: 6
    case .giga: 9
    case .tera: 12
    case .femto: -15
    }
  }
}
