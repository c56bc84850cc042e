import Foundation
import Testing

@testable import HealthSim
@testable import WeighKit

/// The sync algorithm as a pure function: Health's anchored changes and the log in, the
/// changes to commit out.
@Suite struct SyncPlanTests {
  static let scale = SourceRevision(
    source: HealthSource(name: "Withings", bundleIdentifier: "com.withings.wiScaleNG"))

  static func sample(
    _ kilograms: Double, at instant: Int64, uuid: UUID = UUID(),
    source: SourceRevision = scale
  ) -> HealthSample {
    HealthSample(
      uuid: uuid, type: .bodyMass, startDate: Date(seconds: instant),
      endDate: Date(seconds: instant), value: kilograms, sourceRevision: source, device: nil,
      metadata: [:], creationDate: nil, workout: nil)
  }

  static func added(_ sample: HealthSample, _ position: Int64) -> AnchoredChange {
    .added(sample, anchor: QueryAnchor(fromValue: position))
  }

  static func deleted(_ uuid: UUID, _ position: Int64) -> AnchoredChange {
    .deleted(DeletedObject(uuid: uuid, metadata: [:]), anchor: QueryAnchor(fromValue: position))
  }

  /// The entries put, by number, and the numbers removed.
  static func effect(_ changes: [StoreChange]) -> (put: [Int: Entry], removed: [Int]) {
    var put: [Int: Entry] = [:]
    var removed: [Int] = []
    for change in changes {
      switch change {
      case .put(let row): if let entry = row.value as? Entry { put[entry.id] = entry }
      case .remove(_, let id): removed.append(id)
      default: continue
      }
    }
    return (put, removed)
  }

  @Test func aNewSampleBecomesAHealthEntryAndItsUndoRemovesIt() throws {
    let uuid = UUID()
    let plan = try SyncPlan(
      changes: [Self.added(Self.sample(70.2, at: 1_000, uuid: uuid), 1)], log: [],
      index: HealthUUIDIndex([]), dedup: .uuid, nextID: 7)
    #expect((plan.imported, plan.removed, plan.skipped) == (1, 0, 0))
    let entry = try #require(Self.effect(plan.changes).put[7])
    #expect(entry.origin == .health)
    #expect(entry.kilograms == 70.2)
    #expect(entry.instant == 1_000)
    #expect(entry.source == "Withings")
    #expect(entry.healthUUID == uuid.uuidString)
    #expect(Self.effect(plan.undo).removed == [7])
  }

  @Test func theAppsOwnSamplesAndLinkedOnesAreSkipped() throws {
    let linked = UUID()
    let log = [
      Entry(
        id: 1, instant: 500, kilograms: 70, origin: .health, source: "Withings",
        healthUUID: linked.uuidString)
    ]
    let plan = try SyncPlan(
      changes: [
        Self.added(Self.sample(69, at: 900, source: HealthLink.app), 1),
        Self.added(Self.sample(70, at: 500, uuid: linked), 2),
      ],
      log: log, index: HealthUUIDIndex(log), dedup: .uuid, nextID: 2)
    #expect((plan.imported, plan.removed, plan.skipped) == (0, 0, 2))
    #expect(plan.changes.isEmpty)
  }

  @Test func fuzzyLinksAnUnlinkedEntryWithinAMinuteAndATenthOfAPound() throws {
    let log = [
      Entry(id: 1, instant: 1_000, kilograms: 70.0, origin: .manual, source: "weigh"),
      Entry(id: 2, instant: 5_000, kilograms: 80.0, origin: .manual, source: "weigh"),
    ]
    let near = Self.sample(70.04, at: 1_050)
    let far = Self.sample(80.0, at: 5_061)
    let plan = try SyncPlan(
      changes: [Self.added(near, 1), Self.added(far, 2)], log: log,
      index: HealthUUIDIndex(log), dedup: .fuzzy, nextID: 3)
    #expect((plan.imported, plan.removed, plan.skipped) == (1, 0, 1))
    let put = Self.effect(plan.changes).put
    #expect(put[1]?.healthUUID == near.uuid?.uuidString)
    #expect(put[1]?.origin == .manual)
    #expect(put[3]?.healthUUID == far.uuid?.uuidString)
    #expect(put[2] == nil)
  }

  @Test func aDeletionRemovesAHealthEntryButOnlyUnlinksAManualOne() throws {
    let (fromHealth, matched) = (UUID(), UUID())
    let log = [
      Entry(
        id: 1, instant: 100, kilograms: 70, origin: .health, source: "Withings",
        healthUUID: fromHealth.uuidString),
      Entry(
        id: 2, instant: 200, kilograms: 71, origin: .manual, source: "weigh",
        healthUUID: matched.uuidString),
    ]
    let plan = try SyncPlan(
      changes: [Self.deleted(fromHealth, 3), Self.deleted(matched, 4), Self.deleted(UUID(), 5)],
      log: log, index: HealthUUIDIndex(log), dedup: .uuid, nextID: 3)
    #expect((plan.imported, plan.removed, plan.skipped) == (0, 1, 0))
    let effect = Self.effect(plan.changes)
    #expect(effect.removed == [1])
    #expect(effect.put[2]?.healthUUID == nil)
    #expect(effect.put[2]?.origin == .manual)
    let undo = Self.effect(plan.undo)
    #expect(undo.put[1]?.healthUUID == fromHealth.uuidString)
    #expect(undo.put[2]?.healthUUID == matched.uuidString)
  }

  @Test func aSampleAddedAndDeletedInOneSyncLeavesNoEntry() throws {
    let uuid = UUID()
    let plan = try SyncPlan(
      changes: [Self.added(Self.sample(70, at: 100, uuid: uuid), 1), Self.deleted(uuid, 2)],
      log: [], index: HealthUUIDIndex([]), dedup: .uuid, nextID: 1)
    #expect((plan.imported, plan.removed) == (1, 1))
    #expect(plan.changes.isEmpty)
    #expect(plan.undo.isEmpty)
  }
}
