import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

@Suite struct ObserverTests {
  @Test func theCompletionComesFromATaskAfterTheSyncFinished() async throws {
    let app = try AppHarness()
    let backend = RecordingBackend()
    try await app.device.run {
      let sync = try app.launch(backend: backend)
      try await sync.requestAuthorization()
      try await sync.start()
      await app.device.moveAppToBackground()

      try app.scaleSaves([79.9])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
      #expect(try await app.savedJournal().map(\.kilograms) == [79.9])
      #expect(await backend.uploaded.map(\.kilograms) == [79.9])
      #expect(!app.device.events.contains { $0.contains("completion not called") })
    }
  }

  @Test func aHungSyncMissesTheCompletionAndHealthBacksOffThenStops() async throws {
    let app = try AppHarness()
    let backend = StalledBackend()
    app.device.completionGrace = 0.05
    // The stalled upload keeps the app's Task alive; give up on it after 0.3 s of quiet.
    app.device.taskGrace = 0.3
    try await app.device.run {
      let sync = try app.launch(backend: backend)
      try await sync.start()
      await app.device.moveAppToBackground()

      try app.scaleSaves([79.9])
      await app.device.settle()
      #expect(try await app.savedJournal().map(\.kilograms) == [79.9])
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(app.device.observerStatus(for: app.bodyMass) == .retrying)

      await app.device.advance(by: 59)
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      await app.device.advance(by: 1)
      #expect(app.device.deliveries(for: app.bodyMass) == 2)
      await app.device.advance(by: 120)
      #expect(app.device.deliveries(for: app.bodyMass) == 3)
      #expect(app.device.observerStatus(for: app.bodyMass) == .stopped)
      // The retries queued behind the hung sync: one upload was ever started.
      #expect(await backend.attempts == 1)

      try app.scaleSaves([80.2])
      await app.device.advance(by: 3_600)
      #expect(app.device.deliveries(for: app.bodyMass) == 3)

      // The user opens the app again: a new process registers again, catches up, and
      // uploads what the stuck one never did.
      app.device.launchApp()
      let uploads = RecordingBackend()
      let relaunched = try app.launch(backend: uploads)
      #expect(try await relaunched.start().added.map(\.kilograms) == [80.2])
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
      #expect(await uploads.uploaded.map(\.kilograms) == [79.9, 80.2])
      #expect(try await app.savedJournal().allSatisfy(\.isUploaded))
      // Let the old process's hung upload end; it wrote nothing the test still reads.
      await backend.open()
    }
  }

  @Test func stoppingTurnsTheObserverOff() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.start()
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
      try await sync.stop()
      #expect(app.device.observerStatus(for: app.bodyMass) == .off)
      try app.scaleSaves([80.0])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 0)
    }
  }
}
