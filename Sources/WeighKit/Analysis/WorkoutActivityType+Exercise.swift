import HealthSim

/// Exercise names of the `workout` command, mapped to HealthKit's activity types.
extension WorkoutActivityType {
  /// The activity type of an exercise name, as StandFit maps it.
  ///
  /// Case, spaces, hyphens and underscores are ignored (`Push-Ups`, `push ups`, `wall_sit`),
  /// and the singular of each plural name is accepted (`squat`, `lunge`, `jumping jack`).
  /// Any other name is `other`.
  public init(exercise name: String) {
    self = Self.byExercise[Self.normalize(name)] ?? .other
  }

  /// The unit a count means when `workout` is given none: seconds for held positions
  /// (plank, wall sit), minutes for sessions (stretching, yoga, walking, running), else reps.
  public static func defaultUnit(exercise name: String) -> WorkoutCountUnit {
    switch normalize(name) {
    case "plank", "wallsit": .seconds
    case "stretching", "yoga", "walking", "running": .minutes
    default: .reps
    }
  }

  static func normalize(_ name: String) -> String {
    String(name.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" })
  }

  private static let byExercise: [String: WorkoutActivityType] = [
    "squats": .functionalStrengthTraining, "squat": .functionalStrengthTraining,
    "pushups": .functionalStrengthTraining, "pushup": .functionalStrengthTraining,
    "lunges": .functionalStrengthTraining, "lunge": .functionalStrengthTraining,
    "wallsit": .functionalStrengthTraining,
    "plank": .coreTraining,
    "jumpingjacks": .jumpRope, "jumpingjack": .jumpRope,
    "stretching": .flexibility,
    "yoga": .yoga,
    "walking": .walking,
    "running": .running,
  ]
}
