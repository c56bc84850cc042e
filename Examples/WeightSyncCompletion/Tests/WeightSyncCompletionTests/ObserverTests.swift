import Foundation
import HealthKit
import Testing

@testable import WeightSyncCompletion

@Suite struct ObserverTests {
  @Test func theCompletionIsCalledAfterTheImportAndUploadFinish() async throws {
    let app = try AppHarness()
    let backend = RecordingBackend()
    try await app.device.run {
      let sync = try app.launch(backend: backend)
      try await sync.authorize()
      _ = try await sync.start()
      await app.device.moveAppToBackground()

      try app.scaleSaves([79.9])
      await app.device.settle()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
      #expect(try app.savedLog().map(\.kilograms) == [79.9])
      #expect(backend.uploaded.map(\.kilograms) == [79.9])
      #expect(try app.savedLog().allSatisfy(\.isUploaded))
      #expect(!app.device.events.contains { $0.contains("completion not called") })
    }
  }

  @Test func aStalledUploadMissesTheCompletionAndHealthBacksOffThenStops() async throws {
    let app = try AppHarness()
    let backend = StalledBackend()
    app.device.completionGrace = 0.05
    // The stalled upload keeps the app's Task alive; give up on it after 0.3 s of quiet.
    app.device.taskGrace = 0.3
    try await app.device.run {
      let sync = try app.launch(backend: backend)
      _ = try await sync.start()
      await app.device.moveAppToBackground()

      try app.scaleSaves([79.9])
      await app.device.settle()
      // The import itself finished; only the upload, and so the completion, is missing.
      #expect(try app.savedLog().map(\.kilograms) == [79.9])
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(app.device.observerStatus(for: app.bodyMass) == .retrying)

      // Retries after 1 minute, then 2 more; the third miss stops background delivery.
      await app.device.advance(by: 59)
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      await app.device.advance(by: 1)
      #expect(app.device.deliveries(for: app.bodyMass) == 2)
      await app.device.advance(by: 120)
      #expect(app.device.deliveries(for: app.bodyMass) == 3)
      #expect(backend.uploadAttempts == 3)
      #expect(app.device.observerStatus(for: app.bodyMass) == .stopped)
      #expect(app.device.events.contains { $0.contains("background delivery stopped") })

      // Stopped: a new weight does not wake the app.
      try app.scaleSaves([80.2])
      await app.device.advance(by: 3_600)
      #expect(app.device.deliveries(for: app.bodyMass) == 3)

      // The server answers late; at the next launch the app registers again and catches up.
      backend.answerAll()
      app.device.launchApp()
      let relaunched = try app.launch(backend: RecordingBackend())
      let summary = try await relaunched.start()
      #expect(summary.added.map(\.kilograms) == [80.2])
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
    }
  }

  @Test func aForegroundReturnFiresTheObserverWithNothingNew() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      _ = try await sync.start()
      await app.device.moveAppToBackground()
      await app.device.bringAppToForeground()
      #expect(app.device.deliveries(for: app.bodyMass) == 1)
      #expect(app.device.observerStatus(for: app.bodyMass) == .active)
      #expect(try app.savedLog().isEmpty)
    }
  }
}
