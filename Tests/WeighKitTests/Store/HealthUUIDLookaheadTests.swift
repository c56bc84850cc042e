import Foundation
import Testing

@testable import HealthSim
@testable import WeighKit

/// `HealthStore.freshUUID` asks `health.sqlite` about the generator's next UUIDs in one
/// call (`UUIDsAhead`): the UUIDs it hands out must be those a store in memory, which
/// looks each one up as it is drawn, hands out, whatever happens between the look-ahead and
/// the draws (the generator reseeded, a save of a coming UUID, a deletion).
@Suite struct HealthUUIDLookaheadTests {
  static let scale = SourceRevision(
    source: HealthSource(name: "Scale", bundleIdentifier: "com.example.scale"), version: "1")

  static func sample(_ index: Int, uuid: UUID? = nil) -> HealthSample {
    HealthSample(
      type: .bodyMass, value: 70 + Double(index) / 10,
      start: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60), uuid: uuid)
  }

  /// The generator's `index`th UUID (from 0) after `seed`.
  static func drawn(_ index: Int, seed: UInt64) -> UUID {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<index { _ = generator.nextUUID() }
    return generator.nextUUID()
  }

  /// The UUIDs each save got, in order, on `storage`.
  static func savedUUIDs(on storage: any HealthSampleStorage) throws -> (
    uuids: [UUID], askedAhead: Bool
  ) {
    let health = HealthStore(
      storage: storage, app: HealthLink.app, seed: 5, clock: Date(timeIntervalSince1970: 2e9))
    var uuids: [UUID] = []
    var askedAhead = false
    func save(_ index: Int, uuid: UUID? = nil) throws {
      uuids += try health.save([sample(index, uuid: uuid)], as: scale).compactMap(\.uuid)
      askedAhead = askedAhead || !health.uuidsAhead.isEmpty
    }
    for index in 0..<40 { try save(index) }
    // Reseeded: the first 40 UUIDs are live, and skipped one by one.
    health.seed(5)
    for index in 40..<45 { try save(index) }
    // A save of a UUID still to be drawn, after the look-ahead found it on no sample (the
    // first draw after a reseed is looked up alone; the next one asks ahead).
    health.seed(6)
    try save(45)
    try save(46)
    try save(47, uuid: drawn(2, seed: 6))
    try save(48)
    // A deletion of the sample whose UUID is drawn next, after the look-ahead found it live.
    try save(49, uuid: drawn(2, seed: 7))
    health.seed(7)
    try save(50)
    try save(51)
    #expect(try health.deleteAsOwner([drawn(2, seed: 7)]) == 1)
    try save(52)
    #expect(health.storageFailure == nil)
    return (uuids, askedAhead)
  }

  @Test func theUUIDsHandedOutAreThoseLookedUpOneByOne() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let sqlite = try HealthSQLiteStorage(path: directory.file(HealthSQLiteStorage.fileName))
    defer { try? sqlite.close() }
    #expect(sqlite.looksUpInBatches)
    #expect(!InMemorySampleStorage().looksUpInBatches)
    let onDisk = try Self.savedUUIDs(on: sqlite)
    let inMemory = try Self.savedUUIDs(on: InMemorySampleStorage())
    #expect(onDisk.askedAhead)
    #expect(!inMemory.askedAhead)
    #expect(onDisk.uuids == inMemory.uuids)
    // Reseeded, the live UUIDs were skipped; the one saved ahead of its draw too; the
    // deleted one was handed out again.
    #expect(Array(onDisk.uuids[40..<45]) == (40..<45).map { Self.drawn($0, seed: 5) })
    #expect(Array(onDisk.uuids[45...48]) == (0..<4).map { Self.drawn($0, seed: 6) })
    #expect(Array(onDisk.uuids[49...52]) == [2, 0, 1, 2].map { Self.drawn($0, seed: 7) })
  }

  @Test func uuidsAheadAreTakenInOrderOnly() {
    let uuids = (0..<4).map { Self.drawn($0, seed: 1) }
    var ahead = UUIDsAhead(uuids, live: [uuids[1]])
    #expect(!ahead.isEmpty)
    #expect(ahead.take(uuids[1]) == nil)
    #expect(ahead.take(uuids[0]) == false)
    #expect(!ahead.holds(uuids[0]))
    #expect(ahead.holds(uuids[2]))
    #expect(ahead.take(uuids[1]) == true)
    #expect(ahead.take(uuids[2]) == false)
    #expect(ahead.take(uuids[3]) == false)
    #expect(ahead.isEmpty)
    #expect(ahead.take(uuids[3]) == nil)
  }
}
