import Foundation
import HealthSim
import Testing

@Suite("Metadata values a store can keep")
struct MetadataValidationTests {
  @Test(
    "a number or date that is not finite is refused with its key, and nothing is saved",
    arguments: [
      MetadataValue.number(.nan), .number(.infinity), .number(-.infinity),
      .date(Date(timeIntervalSinceReferenceDate: .nan)),
    ])
  func nonFiniteValueIsRefused(value: MetadataValue) throws {
    let store = makeStore()
    let anchor = store.latestAnchor
    let metadata: Metadata = ["HKWeatherTemperature": .number(21), "Zeta": value, "Alpha": value]
    let sample = HealthSample(type: .bodyMass, value: 70, start: at(0), metadata: metadata)
    #expect {
      try store.save([sample])
    } throws: { error in
      guard let error = error as? HealthError else { return false }
      // The first key in order is named, so the message does not depend on hashing.
      return error.code == .errorInvalidArgument
        && error.message == "the metadata value of Alpha is not a finite number; give a number"
    }
    #expect(store.liveSampleCount(of: .bodyMass) == 0)
    #expect(store.latestAnchor == anchor)
  }

  @Test("finite numbers, dates, strings and booleans are kept as given")
  func finiteValuesAreKept() throws {
    let store = makeStore()
    let metadata: Metadata = [
      "n": .number(-1.5e300), "d": .date(at(5)), "s": .string("nan"), "b": .bool(true),
    ]
    let saved = try store.save(
      [HealthSample(type: .bodyMass, value: 70, start: at(0), metadata: metadata)])
    #expect(saved.first?.metadata == metadata)
  }
}
