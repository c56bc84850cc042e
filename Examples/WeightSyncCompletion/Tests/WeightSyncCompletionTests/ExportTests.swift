import Foundation
import HealthKit
import Testing

@testable import WeightSyncCompletion

@Suite struct ExportTests {
  @Test func anEditedEntryReplacesItsSampleByVersion() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.authorize()
      let entry = try sync.log.addManual(kilograms: 82, at: app.device.now)
      #expect(try await sync.exportManualEntries() == 1)
      let firstUUID = try #require(sync.log.entries.first?.healthUUID)

      try sync.log.edit(entry.id, kilograms: 81.5)
      #expect(try await sync.exportManualEntries() == 1)
      #expect(try await sync.exportManualEntries() == 0)

      let weights = try await sync.recentWeights(limit: 10)
      #expect(weights.count == 1)
      let sample = try #require(weights.first)
      #expect(sample.uuid != firstUUID)
      #expect(sample.quantity.doubleValue(for: .gramUnit(with: .kilo)) == 81.5)
      #expect(sample.metadata?[HKMetadataKeySyncIdentifier] as? String == entry.syncIdentifier)
      #expect((sample.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.intValue == 2)

      // Health recorded the replacement as a deletion that keeps the sync identifier.
      let (_, deleted) = try await app.allChanges(sync.healthStore)
      let replaced = try #require(deleted.first { $0.uuid == firstUUID })
      #expect(replaced.metadata?[HKMetadataKeySyncIdentifier] as? String == entry.syncIdentifier)

      // The app's own samples never come back as imported entries.
      #expect(try await sync.importChanges().added.isEmpty)
      #expect(try app.savedLog().count == 1)
    }
  }

  @Test func aDeletedEntryDeletesItsSample() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let kept = try sync.log.addManual(kilograms: 75, at: app.device.now)
      let removed = try sync.log.addManual(kilograms: 76, at: app.device.now.addingTimeInterval(60))
      #expect(try await sync.exportManualEntries() == 2)

      try sync.log.deleteManual(removed.id)
      #expect(try await sync.exportManualEntries() == 0)
      let weights = try await sync.recentWeights(limit: 10)
      #expect(
        weights.map { $0.metadata?[HKMetadataKeySyncIdentifier] as? String } == [
          kept.syncIdentifier
        ])
    }
  }

  @Test func writingDeniedFailsWithHealthKitsCode() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      app.device.setWritePermission(.denied, for: [app.bodyMass])
      #expect(!sync.canWriteWeights)
      try sync.log.addManual(kilograms: 75, at: app.device.now)
      await #expect { try await sync.exportManualEntries() } throws: { error in
        healthKitCode(error) == .errorAuthorizationDenied
      }
      // Nothing was marked as exported: allowing writes later exports the entry.
      app.device.setWritePermission(.authorized, for: [app.bodyMass])
      #expect(try await sync.exportManualEntries() == 1)
    }
  }
}
