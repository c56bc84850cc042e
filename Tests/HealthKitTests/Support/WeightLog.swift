import HealthKit

/// An app's weight log that imports from Health the way apps do: an anchored descriptor
/// read in pages, the anchor kept as NSKeyedArchiver data, deletions removing entries.
actor WeightLog {
  private let store: HKHealthStore
  private let page: Int
  /// Body mass in kg by sample UUID.
  private(set) var entries: [UUID: Double] = [:]
  /// The anchor as the app keeps it between launches.
  private(set) var anchorData: Data?
  /// How many syncs ran.
  private(set) var syncs = 0

  init(store: HKHealthStore, page: Int = 500) {
    self.store = store
    self.page = page
  }

  /// Imports what changed since the last sync; returns how many changes it read.
  @discardableResult
  func sync() async throws -> Int {
    syncs += 1
    var anchor = try anchorData.flatMap {
      try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: $0)
    }
    var read = 0
    while true {
      let descriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: HKQuantityType(.bodyMass))], anchor: anchor,
        limit: page)
      let result = try await descriptor.result(for: store)
      for sample in result.addedSamples {
        entries[sample.uuid] = sample.quantity.doubleValue(for: .gramUnit(with: .kilo))
      }
      for deleted in result.deletedObjects { entries[deleted.uuid] = nil }
      anchor = result.newAnchor
      anchorData = try NSKeyedArchiver.archivedData(
        withRootObject: result.newAnchor, requiringSecureCoding: true)
      let count = result.addedSamples.count + result.deletedObjects.count
      read += count
      if count < page { return read }
    }
  }
}
