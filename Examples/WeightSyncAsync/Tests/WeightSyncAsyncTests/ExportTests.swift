import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

@Suite struct ExportTests {
  @Test func anEditedEntryReplacesItsSampleByVersion() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let entry = try await sync.journal.addManual(kilograms: 82, at: app.device.now)
      #expect(try await sync.exportManualEntries() == 1)
      let firstUUID = try #require(await sync.journal.entries.first?.healthUUID)

      try await sync.journal.edit(entry.id, kilograms: 81.5)
      #expect(try await sync.exportManualEntries() == 1)
      #expect(try await sync.exportManualEntries() == 0)

      let weights = try await sync.recentWeights(limit: 10)
      #expect(weights.count == 1)
      let sample = try #require(weights.first)
      #expect(sample.uuid != firstUUID)
      #expect(sample.quantity.doubleValue(for: .gramUnit(with: .kilo)) == 81.5)
      #expect((sample.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.intValue == 2)

      // Health kept the replaced sample as a deletion carrying the sync identifier.
      let everything = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: app.bodyMass)], anchor: nil)
      let changes = try await everything.result(for: sync.healthStore)
      let replaced = try #require(changes.deletedObjects.first { $0.uuid == firstUUID })
      #expect(replaced.metadata?[HKMetadataKeySyncIdentifier] as? String == entry.syncIdentifier)

      // The app's own samples never come back as imported entries.
      #expect(try await sync.sync().added.isEmpty)
      #expect(try await app.savedJournal().count == 1)
    }
  }

  @Test func aDeletedEntryDeletesItsSample() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let kept = try await sync.journal.addManual(kilograms: 75, at: app.device.now)
      let removed = try await sync.journal.addManual(
        kilograms: 76, at: app.device.now.addingTimeInterval(60))
      #expect(try await sync.exportManualEntries() == 2)

      try await sync.journal.deleteManual(removed.id)
      #expect(try await sync.exportManualEntries() == 0)
      let identifiers = try await sync.recentWeights(limit: 10).map {
        $0.metadata?[HKMetadataKeySyncIdentifier] as? String
      }
      #expect(identifiers == [kept.syncIdentifier])
    }
  }
}
