import Foundation
import HealthSim
import PropertyBased
import Testing

/// A storage that counts the rows its reads return, over an in-memory one.
final class CountingStorage: HealthSampleStorage {
  let base: any HealthSampleStorage
  /// Live samples, deleted-object records and statistics buckets returned so far.
  var rows = 0

  init(_ base: any HealthSampleStorage) { self.base = base }

  func counted<Rows: Collection>(_ found: Rows) -> Rows {
    rows += found.count
    return found
  }

  func apply(_ changes: [HealthChange]) throws { try base.apply(changes) }
  func append(_ records: [HealthRecord]) throws { try base.append(records) }
  func smallState() throws -> HealthSmallState? { try base.smallState() }
  func lastPosition() throws -> Int64 { try base.lastPosition() }
  func record(at position: Int64) throws -> HealthRecord? {
    counted([try base.record(at: position)].compactMap { $0 }).first
  }
  func records(after position: Int64, limit: Int) throws -> [HealthRecord] {
    counted(try base.records(after: position, limit: limit))
  }
  func changes(of type: SampleType, after anchor: Int64, limit: Int) throws -> [HealthRecord] {
    counted(try base.changes(of: type, after: anchor, limit: limit))
  }
  func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?) throws
    -> [StoredSample]
  {
    counted(try base.samples(of: type, startingIn: range, bundle: bundle))
  }
  func sample(uuid: UUID) throws -> StoredSample? {
    counted([try base.sample(uuid: uuid)].compactMap { $0 }).first
  }
  func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]
  {
    counted(try base.samples(syncIdentifier: syncIdentifier, type: type, bundle: bundle))
  }
  func newestSample(of type: SampleType) throws -> StoredSample? {
    counted([try base.newestSample(of: type)].compactMap { $0 }).first
  }
  func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample] {
    counted(try base.samples(uuidPrefix: hexPrefix, limit: limit))
  }
  func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]
  {
    counted(try base.statistics(of: type, boundaries: boundaries, bundle: bundle))
  }
  func counts(of type: SampleType?) throws -> RecordCounts { try base.counts(of: type) }
  func longestDuration(of type: SampleType) throws -> TimeInterval? {
    try base.longestDuration(of: type)
  }
}

/// A storage whose reads fail after a given number of calls.
final class FailingStorage: HealthSampleStorage {
  let base = InMemorySampleStorage()
  var callsLeft: Int

  init(failingAfter calls: Int) { callsLeft = calls }

  func call<Value>(_ body: () throws -> Value) throws -> Value {
    callsLeft -= 1
    guard callsLeft >= 0 else { throw HealthStorageError("the disk is gone") }
    return try body()
  }

  func apply(_ changes: [HealthChange]) throws { try call { try base.apply(changes) } }
  func append(_ records: [HealthRecord]) throws { try call { try base.append(records) } }
  func smallState() throws -> HealthSmallState? { try call { try base.smallState() } }
  func lastPosition() throws -> Int64 { try call { try base.lastPosition() } }
  func record(at position: Int64) throws -> HealthRecord? {
    try call { try base.record(at: position) }
  }
  func records(after position: Int64, limit: Int) throws -> [HealthRecord] {
    try call { try base.records(after: position, limit: limit) }
  }
  func changes(of type: SampleType, after anchor: Int64, limit: Int) throws -> [HealthRecord] {
    try call { try base.changes(of: type, after: anchor, limit: limit) }
  }
  func samples(of type: SampleType, startingIn range: Range<Date>?, bundle: String?) throws
    -> [StoredSample]
  {
    try call { try base.samples(of: type, startingIn: range, bundle: bundle) }
  }
  func sample(uuid: UUID) throws -> StoredSample? { try call { try base.sample(uuid: uuid) } }
  func samples(syncIdentifier: String, type: SampleType, bundle: String?) throws
    -> [StoredSample]
  {
    try call { try base.samples(syncIdentifier: syncIdentifier, type: type, bundle: bundle) }
  }
  func newestSample(of type: SampleType) throws -> StoredSample? {
    try call { try base.newestSample(of: type) }
  }
  func samples(uuidPrefix hexPrefix: String, limit: Int) throws -> [StoredSample] {
    try call { try base.samples(uuidPrefix: hexPrefix, limit: limit) }
  }
  func statistics(of type: SampleType, boundaries: [Date], bundle: String?) throws
    -> [SampleBucket]
  {
    try call { try base.statistics(of: type, boundaries: boundaries, bundle: bundle) }
  }
  func counts(of type: SampleType?) throws -> RecordCounts {
    try call { try base.counts(of: type) }
  }
}

/// `HealthStore` over its `HealthSampleStorage`: what it asks of it, and that a store kept in
/// any storage answers as one kept in memory.
@Suite struct HealthStoreStorageTests {
  static let hour: TimeInterval = 3600
  static let day: TimeInterval = 86400

  /// A storage holding `size` body-mass readings, one every six hours up to `epoch` (a
  /// sync identifier on every tenth, the app's own every third), and the state of a store
  /// at `epoch`.
  func history(size: Int) throws -> InMemorySampleStorage {
    let storage = InMemorySampleStorage()
    var records: [HealthRecord] = []
    records.reserveCapacity(size)
    var generator = SeededGenerator(seed: 3)
    for index in 0..<size {
      let start = epoch.addingTimeInterval(-Double(size - index) * 6 * Self.hour)
      var metadata: Metadata = [:]
      if index % 10 == 0 {
        metadata[MetadataKey.syncIdentifier] = .string("reading-\(index)")
        metadata[MetadataKey.syncVersion] = .number(1)
      }
      let sample = HealthSample(
        uuid: generator.nextUUID(), type: .bodyMass, startDate: start, endDate: start,
        value: 60 + Double(index % 200) / 10,
        sourceRevision: index % 3 == 0 ? HealthStore.defaultApp : scaleSource, device: nil,
        metadata: metadata, creationDate: start, workout: nil)
      records.append(.sample(sample, position: Int64(index + 1)))
    }
    try storage.append(records)
    var state = HealthSmallState(clock: epoch, app: HealthStore.defaultApp, seed: 9)
    state.counter = Int64(size)
    try storage.apply([.stateChanged(state)])
    return storage
  }

  /// The rows each of a save, a deletion, an anchored read from the latest anchor, a
  /// month's daily statistics and a month's samples reads, on a store of `size` readings.
  func rowsRead(size: Int) throws -> [String: Int] {
    let counting = CountingStorage(try history(size: size))
    let store = try HealthStore(storage: counting)
    var rows: [String: Int] = [:]
    func measure(_ name: String, _ body: () throws -> Void) throws {
      counting.rows = 0
      try body()
      rows[name] = counting.rows
    }
    let anchor = store.latestAnchor
    try measure("save") { try scaleWrites(store, 70, at: 1) }
    try measure("save with a sync identifier") {
      try store.save([weight(71, at: 2, syncID: "reading-\(size - 10)", version: 2)])
    }
    let victim = try #require(store.record(at: Int64(size - 1)))
    guard case .sample(let doomed, _) = victim else {
      Issue.record("no sample at \(size - 1)")
      return rows
    }
    try measure("delete") { try store.deleteAsOwner([doomed.uuid!]) }
    // `health delete last` and `health delete PREFIX`: what they look up.
    try measure("newest sample") {
      #expect(store.newestSample()?.value == 71)
    }
    let survivor = try #require(store.allSamples(of: .bodyMass).dropLast(5).last?.uuid)
    try measure("uuid prefix") {
      let found = store.samples(uuidPrefix: String(survivor.uuidString.prefix(13)), limit: 2)
      #expect(found.map(\.uuid) == [survivor])
    }
    try measure("anchored read") {
      let result = try store.anchoredResult(type: .bodyMass, anchor: anchor)
      #expect(result.samples.count == 2)
      #expect(result.deletedObjects.count == 2)
    }
    let month = SamplePredicate.samples(
      withStart: epoch.addingTimeInterval(-30 * Self.day), end: epoch.addingTimeInterval(60),
      options: .strictStartDate)
    try measure("statistics") {
      let collection = try store.statisticsCollection(
        of: .bodyMass, predicate: month, options: [.discreteAverage, .discreteMax],
        anchorDate: epoch, intervalComponents: DateComponents(day: 1))
      #expect(collection.statistics().count == 30)
    }
    try measure("samples") {
      let found = try store.samples(of: .bodyMass, predicate: month)
      // Four readings a day, less the deleted and the replaced one.
      #expect(found.count == 30 * 4 - 2)
    }
    #expect(store.storageFailure == nil)
    return rows
  }

  @Test func commandsReadRowsIndependentOfHistorySize() throws {
    let small = try rowsRead(size: 1000)
    let large = try rowsRead(size: 100_000)
    #expect(small == large)
    // Each is a handful of rows, or a month's: 31 days' buckets, 118 samples.
    for (name, rows) in large { #expect(rows <= 130, "\(name) read \(rows) rows") }
  }

  @Test func aFailingStorageIsRecordedAndThrown() throws {
    let storage = FailingStorage(failingAfter: 6)
    let store = HealthStore(storage: storage, clock: epoch)
    #expect(store.storageFailure == nil)
    try scaleWrites(store, 70)
    #expect(throws: HealthError.self) {
      for minute in 1...10 { try scaleWrites(store, 70, at: Double(minute)) }
    }
    #expect(store.storageFailure as? HealthStorageError == HealthStorageError("the disk is gone"))
    // Answers are empty rather than wrong; queries deliver the error.
    #expect(store.allSamples(of: .bodyMass).isEmpty)
    #expect(store.liveSampleCount(of: .bodyMass) == 0)
    #expect(throws: HealthError.self) {
      try store.anchoredResult(type: .bodyMass, anchor: nil)
    }
  }

  @Test func aStorageIsReopenedAsItWasLeft() throws {
    let storage = InMemorySampleStorage()
    #expect(throws: HealthStorageError.self) { try HealthStore(storage: storage) }
    let store = HealthStore(storage: storage, seed: 4, clock: epoch)
    try scaleWrites(store, 70)
    _ = store.advance(by: 3600)
    let reopened = try HealthStore(storage: storage)
    #expect(reopened.snapshot() == store.snapshot())
    // A change kept after the state it kept (a process stopped between the two) is
    // followed by the next one all the same.
    let late = HealthSample(type: .bodyMass, value: 71, start: at(5), uuid: UUID())
    let lastPosition = store.latestAnchor.rawValue
    try storage.apply([.sampleSaved(late, position: lastPosition + 1)])
    let after = try HealthStore(storage: storage)
    #expect(after.latestAnchor.rawValue == lastPosition + 1)
    #expect(try scaleWrites(after, 72, at: 6).value == 72)
    #expect(after.position(of: late.uuid!) == lastPosition + 1)
    #expect(after.storageFailure == nil)
    // A storage that is not empty is not a new store.
    let second = HealthStore(storage: storage, clock: epoch)
    #expect(second.storageFailure != nil)
  }

  // MARK: A second storage answers as the first

  /// The store kept in a new storage that holds only what `store`'s storage holds, as a
  /// process reopening it would find it.
  func reopened(_ store: HealthStore) throws -> HealthStore {
    let storage = InMemorySampleStorage()
    try storage.append(try store.storage.records(after: 0, limit: 0))
    if let state = try store.storage.smallState() { try storage.apply([.stateChanged(state)]) }
    return try HealthStore(storage: storage)
  }

  /// One command: readings with and without sync identifiers, step samples that last,
  /// deletions, deletions by predicate, purges, the clock, read permissions.
  func command(_ code: Int, on store: HealthStore, victim: UUID?) throws {
    let minute = Double(code % 3000)
    switch code % 11 {
    case 0 where victim != nil:
      try store.deleteAsOwner([victim!])
    case 1:
      try store.save([
        weight(70 + Double(code % 7), at: minute, syncID: "id-\(code % 4)", version: Double(code))
      ])
    case 2:
      let steps = HealthSample(
        type: .stepCount, value: Double(code % 500), start: at(minute),
        end: at(minute + Double(code % 200)))
      try store.save([steps], as: code % 2 == 0 ? scaleSource : otherApp)
    case 3:
      store.purgeDeletedObjects(olderThan: Double(code % 4) * 3600)
    case 4:
      store.purgeDeletedObjects(keepingNewest: code % 5)
    case 5:
      _ = store.advance(by: Double(code % 90) * 60)
    case 6:
      try store.deleteObjects(
        of: .bodyMass,
        predicate: .samples(withStart: at(minute), end: at(minute + 120), options: .strictStartDate)
      )
    case 7:
      store.setReadAuthorization(code % 2 == 0 ? .authorized : .denied, for: [.bodyMass])
    case 8:
      store.setReadNotBefore(
        code % 3 == 0 ? nil : at(minute), for: [.bodyMass, .stepCount][code % 2])
    default:
      try store.save(
        (0...(code % 3)).map { weight(60 + Double(code % 30), at: minute + Double($0)) },
        as: [scaleSource, otherApp][code % 2])
    }
  }

  /// Everything a store answers, as values to compare.
  func answers(_ store: HealthStore, code: Int) throws -> [AnyHashable] {
    var all: [AnyHashable] = [store.snapshot(), store.latestAnchor]
    for type in [SampleType.bodyMass, .stepCount] {
      all += [
        store.allSamples(of: type), store.liveSampleCount(of: type),
        store.deletedObjectCount(of: type), store.deletedObjectRecords(of: type),
      ]
    }
    for position in 0...store.latestAnchor.rawValue + 1 { all.append(store.record(at: position)) }
    for sample in store.allSamples(of: .bodyMass) {
      all += [store.sample(with: sample.uuid!), store.position(of: sample.uuid!)]
    }
    let latest = store.latestAnchor.rawValue
    for anchor in [nil, 0, latest / 2, latest] as [Int64?] {
      for limit in [0, 1, 3] {
        all.append(
          try store.anchoredResult(
            type: .bodyMass, anchor: anchor.map(QueryAnchor.init(fromValue:)), limit: limit))
      }
    }
    let start = at(Double(code % 2000))
    let end = start.addingTimeInterval(Double(code % 5 + 1) * 6 * Self.hour)
    let uuids = Set(
      store.allSamples(of: .bodyMass).enumerated().filter { $0.offset % 2 == 0 }.compactMap(
        \.element.uuid))
    let predicates: [SamplePredicate?] = [
      nil,
      .samples(withStart: start, end: end),
      .samples(withStart: start, end: end, options: .strictStartDate),
      .samples(withStart: start, end: end, options: .strictEndDate),
      .samples(withStart: start, end: end, options: [.strictStartDate, .strictEndDate]),
      .samples(withStart: start, end: nil),
      .samples(withStart: nil, end: end),
      .objects(with: uuids),
      .objects(from: [scaleSource.source]),
      SamplePredicate(
        startDate: start, endDate: end, options: .strictStartDate,
        sourceBundleIdentifiers: [HealthStore.defaultApp.source.bundleIdentifier]),
    ]
    for predicate in predicates {
      all.append(try store.samples(of: .bodyMass, predicate: predicate))
      all.append(
        try store.samples(
          of: .stepCount, predicate: predicate, limit: 2,
          sortedBy: [SampleSortDescriptor(.endDate, ascending: false)]))
      all.append(
        try store.statistics(
          of: .bodyMass, predicate: predicate,
          options: [.discreteAverage, .discreteMin, .discreteMax]))
      all.append(
        try store.statistics(
          of: .stepCount, predicate: predicate, options: [.cumulativeSum, .duration]))
      for (type, options) in [
        (SampleType.bodyMass, StatisticsOptions.discreteAverage), (.stepCount, .cumulativeSum),
      ] {
        let collection = try store.statisticsCollection(
          of: type, predicate: predicate, options: options, anchorDate: epoch,
          intervalComponents: DateComponents(hour: 6))
        all.append(collection.statistics())
      }
    }
    return all
  }

  @Test func aStoreReopenedAfterEveryCommandAnswersAsOneKeptInMemory() async {
    await propertyCheck(count: 60, input: Gen.int(in: 0...100_000).array(of: 1...30)) { codes in
      failingOnThrow {
        let kept = makeStore()
        var reopened = try reopened(makeStore())
        for code in codes {
          let live = kept.allSamples(of: .bodyMass)
          let victim = live.isEmpty ? nil : live[code % live.count].uuid
          let results = [kept, reopened].map { store in
            do {
              try command(code, on: store, victim: victim)
              return "done"
            } catch {
              return "\(error)"
            }
          }
          #expect(results[0] == results[1], "command \(code)")
          reopened = try self.reopened(reopened)
          #expect(try answers(kept, code: code) == answers(reopened, code: code), "after \(code)")
        }
        #expect(kept.storageFailure == nil)
        #expect(reopened.storageFailure == nil)
      }
    }
  }

  @Test func theNewestSampleAndUUIDPrefixesAnswerAsAListOfEverySample() async {
    await propertyCheck(count: 60, input: Gen.int(in: 0...100_000).array(of: 1...40)) { codes in
      failingOnThrow {
        let store = makeStore()
        for code in codes {
          let live = store.allSamples(of: .bodyMass)
          try? command(code, on: store, victim: live.isEmpty ? nil : live[code % live.count].uuid)
          let all = SampleType.allCases.flatMap { store.allSamples(of: $0) }
          // The newest start; of those starting then, the one saved last.
          let newest = all.max {
            ($0.startDate, store.position(of: $0.uuid!)!)
              < ($1.startDate, store.position(of: $1.uuid!)!)
          }
          #expect(store.newestSample() == newest, "after \(code)")
          var prefixes = ["0", "ab", "-", "FFFF", "abcdefg"]
          for sample in all {
            let text = sample.uuid!.uuidString
            prefixes.append(String(text.prefix(code % 37)))
            prefixes.append(String(text.lowercased().prefix(1 + code % 3)))
          }
          for prefix in prefixes {
            let digits = prefix.lowercased().replacingOccurrences(of: "-", with: "")
            let matching = all.filter {
              $0.uuid!.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
                .hasPrefix(digits)
                && digits.allSatisfy { "0123456789abcdef".contains($0) }
            }.sorted { $0.uuid!.uuidString < $1.uuid!.uuidString }
            #expect(store.samples(uuidPrefix: prefix, limit: 0) == matching, "\(prefix)")
            #expect(
              store.samples(uuidPrefix: prefix, limit: 2) == Array(matching.prefix(2)),
              "\(prefix)")
          }
        }
      }
    }
  }

  @Test func statisticsTheStorageAddsEqualThoseAddedFromSamples() async {
    // A filter that takes every sample makes the store add the samples itself.
    let everything = SampleFilter(sample: { _ in true }, deletion: { _ in true })
    await propertyCheck(count: 60, input: Gen.int(in: 0...100_000).array(of: 1...40)) { codes in
      failingOnThrow {
        let store = makeStore()
        for code in codes {
          let live = store.allSamples(of: .bodyMass)
          try? command(code, on: store, victim: live.isEmpty ? nil : live[code % live.count].uuid)
        }
        store.setReadAuthorization(.authorized)
        store.setReadNotBefore(nil, for: .bodyMass)
        let options: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
        for code in codes {
          let start = at(Double(code % 3000))
          let end = start.addingTimeInterval(Double(code % 9 + 1) * 3 * Self.hour)
          var direct = SamplePredicate.samples(
            withStart: start, end: end, options: .strictStartDate)
          var added = direct
          added.filter = everything
          #expect(
            try store.statistics(of: .bodyMass, predicate: direct, options: options)
              == store.statistics(of: .bodyMass, predicate: added, options: options))
          for components in [DateComponents(hour: 1), DateComponents(day: 1)] {
            let collections = try [direct, added].map {
              try store.statisticsCollection(
                of: .bodyMass, predicate: $0, options: options, anchorDate: at(Double(code % 60)),
                intervalComponents: components
              ).statistics()
            }
            #expect(collections[0] == collections[1])
          }
          direct.sourceBundleIdentifiers = [scaleSource.source.bundleIdentifier]
          added.sourceBundleIdentifiers = direct.sourceBundleIdentifiers
          #expect(
            try store.statistics(of: .bodyMass, predicate: direct, options: options)
              == store.statistics(of: .bodyMass, predicate: added, options: options))
        }
      }
    }
  }
}
