import HealthSim

/// The kind of a workout (HKWorkoutActivityType), with Apple's raw values.
public enum HKWorkoutActivityType: UInt, Sendable {
  case americanFootball = 1, archery, australianFootball, badminton, baseball, basketball,
    bowling, boxing, climbing, cricket, crossTraining, curling, cycling, dance,
    danceInspiredTraining, elliptical, equestrianSports, fencing, fishing,
    functionalStrengthTraining, golf, gymnastics, handball, hiking, hockey, hunting, lacrosse,
    martialArts, mindAndBody, mixedMetabolicCardioTraining, paddleSports, play,
    preparationAndRecovery, racquetball, rowing, rugby, running, sailing, skatingSports,
    snowSports, soccer, softball, squash, stairClimbing, surfingSports, swimming, tableTennis,
    tennis, trackAndField, traditionalStrengthTraining, volleyball, walking, waterFitness,
    waterPolo, waterSports, wrestling, yoga, barre, coreTraining, crossCountrySkiing,
    downhillSkiing, flexibility, highIntensityIntervalTraining, jumpRope, kickboxing, pilates,
    snowboarding, stairs, stepTraining, wheelchairWalkPace, wheelchairRunPace, taiChi,
    mixedCardio, handCycling, discSports, fitnessGaming, cardioDance, socialDance, pickleball,
    cooldown
  case swimBikeRun = 82, transition, underwaterDiving
  case other = 3000

  /// The engine's activity, when it models this one.
  var simulated: WorkoutActivityType? {
    // checked: raw values are small
    WorkoutActivityType.allCases.first { $0.healthKitRawValue == Int(rawValue) }
  }
}
