import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

@Suite struct DeviceStateTests {
  @Test func aLockedDeviceFailsQueriesAndDeliversAtUnlock() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.start()
      await app.device.moveAppToBackground()
      app.device.lockDevice()

      try app.scaleSaves([78.8])
      await app.device.advance(by: 600)
      #expect(app.device.deliveries(for: app.bodyMass) == 0)
      await #expect { try await sync.sync() } throws: { error in
        healthKitCode(error) == .errorDatabaseInaccessible
      }
      await #expect { try await sync.recentWeights(limit: 1) } throws: { error in
        healthKitCode(error) == .errorDatabaseInaccessible
      }
      #expect(try await app.savedJournal().isEmpty)

      // A save while locked succeeds and is merged into Health at unlock.
      try await sync.journal.addManual(kilograms: 78.5, at: app.device.now)
      let saved = try await sync.exportManualEntries()
      #expect(saved == 1)

      await app.device.unlockDevice()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      let journal = try await app.savedJournal()
      #expect(journal.contains { $0.origin == .health(sourceName: "Scale") })
      try await sync.exportManualEntries()
      #expect(try await sync.recentWeights(limit: 10).count == 2)
    }
  }

  @Test func aFreshInstallAsksOnceAndADenialShowsOnlyForWriting() async throws {
    let app = try AppHarness()
    try await app.device.run {
      // A simulated device starts as after Allow; make it a fresh install.
      app.device.setReadPermission(.notDetermined, for: [app.bodyMass])
      app.device.setWritePermission(.notDetermined, for: [app.bodyMass])
      app.device.answerPrompts(.deny)
      let sync = try app.launch()
      #expect(try await sync.shouldRequestAuthorization())
      try await sync.requestAuthorization()
      #expect(try await !sync.shouldRequestAuthorization())
      #expect(await !sync.canWriteWeights)

      try await sync.journal.addManual(kilograms: 70, at: app.device.now)
      await #expect { try await sync.exportManualEntries() } throws: { error in
        healthKitCode(error) == .errorAuthorizationDenied
      }
      // Reading denied looks like an empty Health, not like an error.
      try app.scaleSaves([71])
      #expect(try await sync.sync().added.isEmpty)
    }
  }

  @Test func withReadDeniedOtherAppsWeightsAreInvisibleWithoutAnError() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.requestAuthorization()
      app.device.setReadPermission(.denied, for: [app.bodyMass])
      #expect(await sync.canWriteWeights)

      try app.scaleSaves([80.0, 80.1])
      let entry = try await sync.journal.addManual(kilograms: 79.5, at: app.device.now)
      #expect(try await sync.exportManualEntries() == 1)

      #expect(try await sync.sync().added.isEmpty)
      let visible = try await sync.recentWeights(limit: 10).map {
        $0.metadata?[HKMetadataKeySyncIdentifier] as? String
      }
      #expect(visible == [entry.syncIdentifier])

      // Reading allowed again, a full re-read finds the scale's weights.
      app.device.setReadPermission(.authorized, for: [app.bodyMass])
      #expect(try await sync.resync().added.map(\.kilograms) == [80.0, 80.1])
    }
  }

  @Test func nothingIsDeliveredAfterAForceQuitAndTheRelaunchCatchesUp() async throws {
    let app = try AppHarness()
    try await app.device.run {
      // The app keeps its sync object for the life of the process.
      let first = try app.launch()
      try await first.start()
      try app.scaleSaves([81.0])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)

      app.device.quitApp()
      await app.device.advance(by: 86_400)
      try app.scaleSaves([81.2, 81.4])
      await app.device.advance(by: 3 * 86_400)
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(try await app.savedJournal().count == 1)

      app.device.launchApp()
      let second = try app.launch()
      let caughtUp = try await second.start()
      #expect(caughtUp.added.map(\.kilograms) == [81.2, 81.4])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)

      try app.scaleSaves([81.6])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 2)
      let saved = try await app.savedJournal().map(\.kilograms)
      #expect(saved == [81.0, 81.2, 81.4, 81.6])
    }
  }
}
