import Foundation
import HealthKit
import Testing

@testable import WeightSyncCompletion

@Suite struct DeviceStateTests {
  @Test func aLockedDeviceFailsQueriesAndDeliversAtUnlock() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      _ = try await sync.start()
      await app.device.moveAppToBackground()
      app.device.lockDevice()

      // The scale's app writes while the phone is locked: nothing wakes the app.
      try app.scaleSaves([78.8])
      await app.device.advance(by: 600)
      #expect(app.device.deliveries(for: app.bodyMass) == 0)
      await #expect { try await sync.importChanges() } throws: { error in
        healthKitCode(error) == .errorDatabaseInaccessible
      }
      await #expect { try await sync.recentWeights(limit: 1) } throws: { error in
        healthKitCode(error) == .errorDatabaseInaccessible
      }
      #expect(try app.savedLog().isEmpty)

      // A save while locked succeeds and is merged into Health at unlock.
      try sync.log.addManual(kilograms: 78.5, at: app.device.now)
      let saved = try await sync.exportManualEntries()
      #expect(saved == 1)

      await app.device.unlockDevice()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(try app.savedLog().contains { $0.origin == .health(sourceName: "Scale") })
      _ = try await sync.exportManualEntries()
      #expect(try await sync.recentWeights(limit: 10).count == 2)
    }
  }

  @Test func withReadDeniedOtherAppsWeightsAreInvisibleWithoutAnError() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.authorize()
      // The user turns reading off in Settings; the app cannot tell.
      app.device.setReadPermission(.denied, for: [app.bodyMass])
      #expect(sync.canWriteWeights)

      try app.scaleSaves([80.0, 80.1])
      let entry = try sync.log.addManual(kilograms: 79.5, at: app.device.now)
      #expect(try await sync.exportManualEntries() == 1)

      let summary = try await sync.importChanges()
      #expect(summary.added.isEmpty)
      let visible = try await sync.recentWeights(limit: 10)
      #expect(
        visible.map { $0.metadata?[HKMetadataKeySyncIdentifier] as? String }
          == [entry.syncIdentifier])

      // Reading allowed again, the app re-reads everything: the scale's weights were there.
      app.device.setReadPermission(.authorized, for: [app.bodyMass])
      try sync.anchors.reset()
      #expect(try await sync.importChanges().added.map(\.kilograms) == [80.0, 80.1])
    }
  }

  @Test func nothingIsDeliveredAfterAForceQuitAndTheRelaunchCatchesUp() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let first = try app.launch()
      _ = try await first.start()
      try app.scaleSaves([81.0])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(try app.savedLog().count == 1)

      app.device.quitApp()
      await app.device.advance(by: 86_400)
      try app.scaleSaves([81.2, 81.4])
      await app.device.advance(by: 3 * 86_400)
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(try app.savedLog().count == 1)

      // The user opens the app: a new process registers again and reads what it missed.
      app.device.launchApp()
      let second = try app.launch()
      let caughtUp = try await second.start()
      #expect(caughtUp.added.map(\.kilograms) == [81.2, 81.4])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)

      await app.device.advance(by: 2 * 86_400)
      try app.scaleSaves([81.6])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 2)
      let log = try app.savedLog().map(\.kilograms)
      #expect(log == [81.0, 81.2, 81.4, 81.6])
    }
  }
}
