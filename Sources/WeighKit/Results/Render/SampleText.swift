import HealthSim

/// Health samples in words, weights in the display unit.
struct SampleText {
  var unit: DisplayUnit

  /// `70.2 kg Withings`, `105 mg/dL CGM`, `8000 steps Phone`.
  func describe(_ sample: HealthSample) -> String {
    "\(value(of: sample)) \(TerminalText.field(sample.source?.name ?? "unknown source"))"
  }

  /// The sample's value in words: `70.2 kg`, `105 mg/dL`, `120/80 mmHg`.
  func value(of sample: HealthSample) -> String {
    switch sample.type {
    case .bodyMass: unit.format(kilograms: sample.value)
    case .bloodGlucose: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) mg/dL"
    case .stepCount: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) steps"
    case .activeEnergyBurned: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) kcal"
    case .appleExerciseTime: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) min exercise"
    case .workout:
      "\(sample.workout.map { $0.activityType.rawValue } ?? "workout") \(DisplayUnit.formatNonZero(sample.value, decimals: 1)) min"
    case .height: "\(DisplayUnit.formatNonZero(sample.value, decimals: 2)) m height"
    case .bodyMassIndex: "BMI \(DisplayUnit.formatNonZero(sample.value, decimals: 1))"
    case .bodyFatPercentage:
      "\(DisplayUnit.formatNonZero(sample.value * 100, decimals: 1)) % body fat"
    case .leanBodyMass: "\(unit.format(kilograms: sample.value)) lean body mass"
    case .basalEnergyBurned: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) kcal basal"
    case .distanceWalkingRunning:
      "\(DisplayUnit.formatNonZero(sample.value / 1000, decimals: 2)) km walking and running"
    case .heartRate: "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) count/min heart rate"
    case .bloodPressureSystolic:
      "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) mmHg systolic"
    case .bloodPressureDiastolic:
      "\(DisplayUnit.formatNonZero(sample.value, decimals: 0)) mmHg diastolic"
    case .bloodPressure: "blood pressure \(bloodPressureText(sample.objects ?? []))"
    }
  }

  /// `120/80 mmHg` from a correlation's objects; a missing value shows as `?`.
  private func bloodPressureText(_ objects: [HealthSample]) -> String {
    func value(_ type: SampleType) -> String {
      objects.first { $0.type == type }.map { DisplayUnit.formatNonZero($0.value, decimals: 0) }
        ?? "?"
    }
    return "\(value(.bloodPressureSystolic))/\(value(.bloodPressureDiastolic)) mmHg"
  }
}
