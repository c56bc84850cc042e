import HealthSim
import Testing

@testable import WeighKit

@Suite struct WorkoutActivityTypeTests {
  @Test func exerciseNamesMapToHealthKitTypes() {
    let cases: [(String, WorkoutActivityType)] = [
      ("squats", .functionalStrengthTraining), ("pushups", .functionalStrengthTraining),
      ("push-ups", .functionalStrengthTraining), ("Push Ups", .functionalStrengthTraining),
      ("lunges", .functionalStrengthTraining), ("wall sit", .functionalStrengthTraining),
      ("Wall-Sit", .functionalStrengthTraining), ("plank", .coreTraining),
      ("jumping jacks", .jumpRope), ("JumpingJacks", .jumpRope), ("stretching", .flexibility),
      ("yoga", .yoga), (" Walking ", .walking), ("running", .running), ("swimming", .other),
      ("", .other), ("squat", .functionalStrengthTraining),
    ]
    for (name, type) in cases {
      #expect(WorkoutActivityType(exercise: name) == type, "\(name)")
    }
    #expect(WorkoutActivityType.functionalStrengthTraining.rawValue == "functionalStrengthTraining")
    #expect(WorkoutActivityType.jumpRope.rawValue == "jumpRope")
  }

  @Test func durations() {
    #expect(WorkoutCountUnit.reps.duration(count: 20) == 40)
    #expect(WorkoutCountUnit.seconds.duration(count: 45) == 45)
    #expect(WorkoutCountUnit.minutes.duration(count: 15) == 900)
    #expect(WorkoutActivityType.defaultUnit(exercise: "plank") == .seconds)
    #expect(WorkoutActivityType.defaultUnit(exercise: "Yoga") == .minutes)
    #expect(WorkoutActivityType.defaultUnit(exercise: "squats") == .reps)
  }
}
