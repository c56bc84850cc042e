import Foundation
import HealthKit
import Testing

@testable import WeightSyncCompletion

@Suite struct ImportTests {
  @Test func importsOnlyWhatChangedSinceTheSavedAnchor() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.authorize()
      try app.scaleSaves([80.0, 80.4])
      let first = try await sync.importChanges()
      #expect(first.added.map(\.kilograms) == [80.0, 80.4])
      #expect(first.added.allSatisfy { $0.origin == .health(sourceName: "Scale") })

      await app.device.advance(by: 2 * 86_400)
      try app.scaleSaves([80.9])
      let second = try await sync.importChanges()
      #expect(second.added.map(\.kilograms) == [80.9])
      #expect(try await sync.importChanges().added.isEmpty)
      #expect(try app.savedLog().map(\.kilograms) == [80.0, 80.4, 80.9])
    }
  }

  @Test func theAnchorIsKeptWithSecureCodingAcrossLaunches() async throws {
    let app = try AppHarness()
    try await app.device.run {
      try app.scaleSaves([70.1])
      _ = try await app.launch().importChanges()
      let saved = try #require(AnchorStore(fileURL: app.anchorURL).load())
      let data = try Data(contentsOf: app.anchorURL)
      let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
      #expect(decoded == saved)

      try app.scaleSaves([70.3])
      let relaunched = try await app.launch().importChanges()
      #expect(relaunched.added.map(\.kilograms) == [70.3])
    }
  }

  @Test func readsLargeHistoriesInPagesWithoutDuplicates() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let weights = (0..<1_201).map { 60 + Double($0 % 100) / 10 }
      try app.scaleSaves(weights)
      let summary = try await app.launch().importChanges()
      #expect(summary.pages == 3)
      #expect(summary.added.count == 1_201)

      // Without its anchor the app reads everything again; the UUID check keeps one copy.
      try AnchorStore(fileURL: app.anchorURL).reset()
      let again = try await app.launch().importChanges()
      #expect(again.added.isEmpty)
      #expect(try app.savedLog().count == 1_201)
    }
  }

  @Test func aSampleDeletedInHealthRemovesItsEntryButNoManualOne() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let manual = try sync.log.addManual(kilograms: 79, at: app.device.now)
      let samples = try app.scaleSaves([80.0, 80.5])
      _ = try await sync.importChanges()
      #expect(try app.savedLog().count == 3)

      try app.device.deleteAsOwner([samples[0].uuid])
      let summary = try await sync.importChanges()
      #expect(summary.removed == 1)
      let left = try app.savedLog()
      #expect(left.map(\.kilograms) == [79, 80.5])
      #expect(left.contains { $0.id == manual.id })
      #expect(!left.contains { $0.healthUUID == samples[0].uuid })
    }
  }

  @Test func aDeletionPurgedBeforeTheAppLooksIsMissedAsOnADevice() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let samples = try app.scaleSaves([80.0])
      _ = try await sync.importChanges()
      try app.device.deleteAsOwner([samples[0].uuid])
      app.device.purgeDeletedObjects()
      let summary = try await sync.importChanges()
      #expect(summary.removed == 0)
      #expect(try app.savedLog().count == 1)
    }
  }
}
