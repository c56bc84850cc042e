import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

@Suite struct ImportTests {
  @Test func importsOnlyWhatChangedSinceTheSavedAnchor() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try await sync.requestAuthorization()

      try app.scaleSaves([80.0, 80.4])
      let first = try await sync.sync()
      #expect(first.added.map(\.kilograms) == [80.0, 80.4])
      #expect(first.added.allSatisfy { $0.origin == .health(sourceName: "Scale") })

      await app.device.advance(by: 2 * 86_400)
      try app.scaleSaves([80.9])
      #expect(try await sync.sync().added.map(\.kilograms) == [80.9])
      #expect(try await sync.sync().added.isEmpty)
      let saved = try await app.savedJournal().map(\.kilograms)
      #expect(saved == [80.0, 80.4, 80.9])
    }
  }

  @Test func theAnchorIsArchivedInUserDefaultsAndSurvivesALaunch() async throws {
    let app = try AppHarness()
    try await app.device.run {
      try app.scaleSaves([70.1])
      try await app.launch().sync()
      let data = try #require(app.defaults.data(forKey: app.anchor.key))
      let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
      #expect(decoded != nil)
      #expect(decoded == app.anchor.load())

      try app.scaleSaves([70.3])
      #expect(try await app.launch().sync().added.map(\.kilograms) == [70.3])
    }
  }

  @Test func readsLargeHistoriesInPagesAndAResyncAddsNoDuplicate() async throws {
    let app = try AppHarness()
    try await app.device.run {
      try app.scaleSaves((0..<1_001).map { 60 + Double($0 % 50) / 10 })
      let sync = try app.launch()
      let summary = try await sync.sync()
      #expect(summary.pages == 3)
      #expect(summary.added.count == 1_001)
      #expect(try await sync.resync().added.isEmpty)
      #expect(try await app.savedJournal().count == 1_001)
    }
  }

  @Test func aSampleDeletedInHealthRemovesItsEntryButNoManualOne() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      let manual = try await sync.journal.addManual(kilograms: 79, at: app.device.now)
      let samples = try app.scaleSaves([80.0, 80.5])
      try await sync.sync()

      try app.device.deleteAsOwner([samples[0].uuid])
      #expect(try await sync.sync().removed == 1)
      let left = try await app.savedJournal()
      #expect(left.map(\.kilograms) == [79, 80.5])
      #expect(left.contains { $0.id == manual.id })
    }
  }

  @Test func theNewestWeightsComeSortedNewestFirst() async throws {
    let app = try AppHarness()
    try await app.device.run {
      try app.scaleSaves([80.0, 80.2, 80.4, 80.6])
      let newest = try await app.launch().recentWeights(limit: 2)
      #expect(newest.map { $0.quantity.doubleValue(for: .gramUnit(with: .kilo)) } == [80.6, 80.4])
    }
  }
}

@Suite struct DefaultDeviceTests {
  @Test func theAppRunsOnTheDefaultDeviceWithNoSetup() async throws {
    let harness = try AppHarness()
    // No device bound: HKHealthStore() is the shared simulated phone, on the wall clock,
    // delivering by itself. Only this test uses it.
    let sync = WeightHealthSync(journal: try WeightJournal(), anchor: harness.anchor)
    try await sync.requestAuthorization()
    #expect(await sync.canWriteWeights)
    let entry = try await sync.journal.addManual(kilograms: 72.5, at: Date())
    #expect(try await sync.exportManualEntries() == 1)
    let newest = try await sync.recentWeights(limit: 1)
    #expect(newest.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == entry.syncIdentifier)
    #expect(try await sync.sync().added.isEmpty)
  }
}
