import HealthKit

/// Sample makers shared by the suites.
enum Make {
  static let weightType = HKQuantityType(.bodyMass)
  static let stepType = HKQuantityType(.stepCount)
  static let kilogram = HKUnit.gramUnit(with: .kilo)

  /// A body-mass sample of `kg` at `date`, with optional metadata.
  static func weight(_ kg: Double, at date: Date, metadata: [String: Any]? = nil)
    -> HKQuantitySample
  {
    HKQuantitySample(
      type: weightType, quantity: HKQuantity(unit: kilogram, doubleValue: kg), start: date,
      end: date, metadata: metadata)
  }

  /// A body-mass sample with a sync identifier and version.
  static func synced(_ kg: Double, at date: Date, id: String, version: Int) -> HKQuantitySample {
    weight(
      kg, at: date,
      metadata: [HKMetadataKeySyncIdentifier: id, HKMetadataKeySyncVersion: version])
  }

  /// A step-count sample of `count` steps over `minutes` from `start`.
  static func steps(_ count: Double, from start: Date, minutes: Double = 10) -> HKQuantitySample {
    HKQuantitySample(
      type: stepType, quantity: HKQuantity(unit: .count(), doubleValue: count), start: start,
      end: start.addingTimeInterval(minutes * 60))
  }
}

/// A value set from handlers on any thread, read by the test afterwards.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value { lock.withLock { stored } }

  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

extension Locked where Value == Int {
  func increment() { update { $0 += 1 } }
}

extension HKError.Code {
  /// The code an error carries when it is an HKError.
  static func of(_ error: (any Error)?) -> HKError.Code? { (error as? HKError)?.code }
}
