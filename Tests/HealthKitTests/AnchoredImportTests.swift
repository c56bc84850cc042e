import HealthKit
import Testing

/// An app's incremental import with HKAnchoredObjectQuery, as on a device (A1–A19).
@Suite struct AnchoredImportTests {
  let weight = Make.weightType

  /// Saves `count` samples a minute apart as the app and two as another app; returns the
  /// UUIDs in save order.
  func seed(_ device: SimulatedDevice, _ store: HKHealthStore, count: Int = 5) async throws
    -> [UUID]
  {
    var uuids: [UUID] = []
    for index in 0..<count {
      let sample = Make.weight(
        70 + Double(index) / 10, at: device.now.addingTimeInterval(60 * Double(index)))
      try await store.save(sample)
      uuids.append(sample.uuid)
    }
    let others = [80.0, 81.0].map { Make.weight($0, at: device.now) }
    try device.saveAsOtherApp(others, name: "Scale", bundleIdentifier: "com.example.scale")
    return uuids + others.map(\.uuid)
  }

  @Test func aNilAnchorReadsEverySampleInSaveOrder() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let empty = try await store.changes(of: weight, after: nil)
      #expect(empty.samples.isEmpty && empty.deleted.isEmpty)
      let saved = try await seed(device, store)
      let batch = try await store.changes(of: weight, after: nil)
      #expect(batch.samples.map(\.uuid) == saved)
      #expect(batch.deleted.isEmpty)
      #expect(batch.anchor != nil)
      #expect(batch.samples.allSatisfy { $0 is HKQuantitySample })
      let own = batch.samples.filter {
        $0.sourceRevision.source.bundleIdentifier == "com.example.app"
      }
      #expect(own.count == 5)
    }
  }

  @Test(arguments: [1, 2, 3, 7, 50])
  func pagingWithALimitEqualsReadingAll(limit: Int) async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let saved = try await seed(device, store)
      // A deletion in the middle takes its own place in the pages.
      try await store.delete(try #require(try await store.samples(of: weight).first))
      let all = try await store.changes(of: weight, after: nil)
      var anchor: HKQueryAnchor?
      var paged: [UUID] = []
      var deleted: [UUID] = []
      var pages = 0
      while true {
        let page = try await store.changes(of: weight, after: anchor, limit: limit)
        #expect(page.samples.count + page.deleted.count <= limit)
        if page.samples.isEmpty && page.deleted.isEmpty { break }
        paged += page.samples.map(\.uuid)
        deleted += page.deleted.map(\.uuid)
        anchor = page.anchor
        pages += 1
        try #require(pages <= saved.count + 1, "paging does not end")
      }
      #expect(paged == all.samples.map(\.uuid))
      #expect(deleted == all.deleted.map(\.uuid))
      #expect(deleted == [saved[0]])
      #expect(pages == (saved.count + limit - 1) / limit)
    }
  }

  @Test func aLaterQueryFromTheNewAnchorReturnsOnlyWhatChanged() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let saved = try await seed(device, store)
      let first = try await store.changes(of: weight, after: nil)
      // Nothing changed: the same anchor reads nothing, twice.
      for _ in 0..<2 {
        let again = try await store.changes(of: weight, after: first.anchor)
        #expect(again.samples.isEmpty && again.deleted.isEmpty)
      }
      await device.advance(by: 3600)
      let added = Make.weight(69.5, at: device.now)
      try await store.save(added)
      let doomed = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(with: [saved[1]]))
      try await store.delete(doomed)
      try device.deleteAsOwner([saved[6]])
      let next = try await store.changes(of: weight, after: first.anchor)
      #expect(next.samples.map(\.uuid) == [added.uuid])
      #expect(next.deleted.map(\.uuid) == [saved[1], saved[6]])
      let after = try await store.changes(of: weight, after: next.anchor)
      #expect(after.samples.isEmpty && after.deleted.isEmpty)
    }
  }

  @Test func deletionsKeepOnlyTheSyncIdentifierAndVersion() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let sample = Make.weight(
        70, at: device.now,
        metadata: [
          HKMetadataKeySyncIdentifier: "entry-7", HKMetadataKeySyncVersion: 3,
          HKMetadataKeyWasUserEntered: true, "AppNote": "morning",
        ])
      try await store.save(sample)
      let before = try await store.changes(of: weight, after: nil)
      try await store.delete(sample)
      let batch = try await store.changes(of: weight, after: before.anchor)
      #expect(batch.samples.isEmpty)
      let deleted = try #require(batch.deleted.first)
      #expect(batch.deleted.count == 1)
      #expect(deleted.uuid == sample.uuid)
      let metadata = try #require(deleted.metadata)
      #expect(metadata[HKMetadataKeySyncIdentifier] as? String == "entry-7")
      #expect((metadata[HKMetadataKeySyncVersion] as? NSNumber)?.intValue == 3)
      #expect(metadata[HKMetadataKeySyncVersion] as? Int == 3)
      #expect(metadata[HKMetadataKeyWasUserEntered] == nil)
      #expect(metadata["AppNote"] == nil)
      // A nil anchor also reads the deletion record while Health keeps it.
      let all = try await store.changes(of: weight, after: nil)
      #expect(all.deleted.map(\.uuid) == [sample.uuid])
    }
  }

  @Test func anOldAnchorMissesDeletionsHealthPurged() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let saved = try await seed(device, store, count: 3)
      let synced = try await store.changes(of: weight, after: nil)
      await device.advance(by: 86_400)
      let doomed = try await store.samples(
        of: weight, predicate: HKQuery.predicateForObjects(with: [saved[0], saved[2]]))
      try await store.delete(doomed)
      // A recent anchor would still see them; Health drops the records older than an hour
      // only after a day has passed.
      #expect(device.purgeDeletedObjects(olderThan: 3600) == 0)
      await device.advance(by: 86_400)
      #expect(device.purgeDeletedObjects(olderThan: 3600) == 2)
      let late = try await store.changes(of: weight, after: synced.anchor)
      #expect(late.deleted.isEmpty)
      #expect(late.samples.isEmpty)
      // The samples are gone all the same: the app can only find out by reading everything.
      let live = try await store.samples(of: weight)
      #expect(Set(live.map(\.uuid)) == Set(saved).subtracting([saved[0], saved[2]]))
    }
  }

  @Test func aPredicateFiltersSamplesAndDeletions() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let saved = try await seed(device, store)
      let mine = HKQuery.predicateForObjects(from: HKSource.default())
      let start = try await store.changes(of: weight, predicate: mine, after: nil)
      #expect(start.samples.map(\.uuid) == Array(saved.prefix(5)))
      try device.deleteAsOwner([saved[5]])
      try await store.delete(try await store.samples(of: weight, predicate: mine, limit: 1))
      let next = try await store.changes(of: weight, predicate: mine, after: start.anchor)
      #expect(next.deleted.map(\.uuid) == [saved[0]])
    }
  }
}

/// HKQueryAnchor kept across launches with NSKeyedArchiver, as apps keep it.
@Suite struct QueryAnchorArchivingTests {
  let weight = Make.weightType

  @Test func anArchivedAnchorResumesAtTheSamePosition() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      for kg in [70.0, 70.5, 71.0] { try await store.save(Make.weight(kg, at: device.now)) }
      let batch = try await store.changes(of: weight, after: nil, limit: 2)
      let anchor = try #require(batch.anchor)
      let data = try NSKeyedArchiver.archivedData(
        withRootObject: anchor, requiringSecureCoding: true)
      #expect(!data.isEmpty)
      let restored = try #require(
        try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data))
      #expect(restored == anchor)
      #expect(restored != HKQueryAnchor(fromValue: 0))
      // The app is relaunched; the restored anchor reads what the old one would.
      device.quitApp()
      device.launchApp()
      let later = Make.weight(72, at: device.now)
      try await store.save(later)
      let fromRestored = try await store.changes(of: weight, after: restored)
      let fromOriginal = try await store.changes(of: weight, after: anchor)
      #expect(fromRestored.samples.count == 2)
      #expect(fromRestored.samples.map(\.uuid) == fromOriginal.samples.map(\.uuid))
      #expect(fromRestored.samples.last?.uuid == later.uuid)
      #expect(fromRestored.anchor == fromOriginal.anchor)
    }
  }

  @Test func anArchiveOfSomethingElseIsNotAnAnchor() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: "not an anchor" as NSString, requiringSecureCoding: true)
    // Foundation on Linux returns nil here where Apple's throws; either way no anchor.
    let decoded = try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    #expect(decoded == nil)
    #expect(throws: (any Error).self) {
      _ = try NSKeyedUnarchiver.unarchivedObject(
        ofClass: HKQueryAnchor.self, from: Data([1, 2, 3]))
    }
  }
}
