import Foundation
import HealthSim
import Testing

/// 2026-01-01 00:00:00 UTC, the clock every test store starts at.
let epoch = Date(timeIntervalSince1970: 1_767_225_600)

/// A date `minutes` after `epoch`.
func at(_ minutes: Double) -> Date { epoch.addingTimeInterval(minutes * 60) }

let scaleSource = SourceRevision(
  source: HealthSource(name: "Withings", bundleIdentifier: "com.withings.wiScaleNG"),
  version: "6.2")
let otherApp = SourceRevision(
  source: HealthSource(name: "MyFitnessPal", bundleIdentifier: "com.myfitnesspal.mfp"))

func makeStore(seed: UInt64 = 7) -> HealthStore { HealthStore(seed: seed, clock: epoch) }

func weight(
  _ kilograms: Double, at minute: Double = 0, syncID: String? = nil, version: Double? = nil
) -> HealthSample {
  var metadata: Metadata = [:]
  if let syncID { metadata[MetadataKey.syncIdentifier] = .string(syncID) }
  if let version { metadata[MetadataKey.syncVersion] = .number(version) }
  return HealthSample(type: .bodyMass, value: kilograms, start: at(minute), metadata: metadata)
}

/// Saves a body-mass sample as the scale and returns it as stored.
@discardableResult
func scaleWrites(_ store: HealthStore, _ kilograms: Double, at minute: Double = 0) throws
  -> HealthSample
{
  try store.save([weight(kilograms, at: minute)], as: scaleSource)[0]
}

/// An observer handler that counts calls and calls its completion unless told to skip.
final class ObserverProbe {
  var calls = 0
  var skipCompletions = 0

  func handler() -> ObserverQuery.UpdateHandler {
    { [self] _, completion, _ in
      calls += 1
      if skipCompletions > 0 {
        skipCompletions -= 1
      } else {
        completion()
      }
    }
  }
}

/// Registers an observer for body mass and enables background delivery, as the app does.
@discardableResult
func observe(
  _ store: HealthStore, frequency: UpdateFrequency = .immediate, type: SampleType = .bodyMass
) throws -> ObserverProbe {
  let probe = ObserverProbe()
  try store.execute(ObserverQuery(sampleType: type, updateHandler: probe.handler()))
  try store.enableBackgroundDelivery(for: type, frequency: frequency)
  return probe
}

func deliveries(_ events: [HealthEvent]) -> [(Date, BackgroundDelivery.Reason, Bool)] {
  events.compactMap {
    if case .delivered(_, _, let reason, let completed) = $0.kind {
      return ($0.date, reason, completed)
    }
    return nil
  }
}

/// Runs a property's body, recording a thrown error as a failure: `propertyCheck` drops
/// errors its body throws, so a property that throws would otherwise pass.
func failingOnThrow(_ body: () throws -> Void) {
  do { try body() } catch { Issue.record(error) }
}
