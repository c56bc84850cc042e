import HealthSim

extension UpdateFrequency {
  /// The word the language uses (`observe on hourly`).
  var word: String {
    switch self {
    case .immediate: "immediate"
    case .hourly: "hourly"
    case .daily: "daily"
    case .weekly: "weekly"
    }
  }

  init?(word: String) {
    switch word {
    case "immediate": self = .immediate
    case "hourly": self = .hourly
    case "daily": self = .daily
    case "weekly": self = .weekly
    default: return nil
    }
  }
}
