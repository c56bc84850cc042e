import Foundation
import HealthSim

/// The simulated Health store as the session holds it: loaded from the store on first
/// use, and every change it makes turned into store changes for the next commit.
final class HealthLink {
  let health: HealthStore
  /// Live samples' positions by UUID: a deletion removes the row at the old position.
  private var live: [UUID: Int64] = [:]
  /// Deleted-object records kept, by position (ascending), with their deletion dates.
  private var deletions: [(position: Int64, date: Date)] = []
  /// Changes recorded since the last commit.
  private var changes: [StoreChange] = []
  /// Health's small state when it changed since the last commit; encoded once at commit,
  /// because it changes with every scheduled event.
  private var changedState: HealthSmallState?
  /// Positions of samples deleted since this session read Health: a store row may still
  /// hold one until the next commit.
  private var removed: Set<Int64> = []
  /// Whether `completeSyncIndex` ran in this session.
  private var isSyncIndexCompleted = false

  /// The document that says the `health-sync` table holds every live sample with a sync
  /// identifier (stores from before it was kept get it when their history is next read).
  static let syncIndexDocument = DocumentName.healthSyncIndex.rawValue

  /// Whether anything waits for the next commit.
  var hasPending: Bool { !changes.isEmpty || changedState != nil }

  /// The app's identity in Health.
  static let app = SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"),
    version: WeighVersion.current)

  /// A store's Health: `records` with `state`, or a new one when there is no state.
  ///
  /// - Parameters:
  ///   - olderThrough: when positive, `records` holds only the records after this position,
  ///     and `loadOlder` reads them all the first time Health needs the rest.
  ///   - olderSynced: with `olderThrough`, the live samples with a sync identifier (the
  ///     `health-sync` table), when it is complete.
  ///
  /// Every store, a memory one too, gets Health's changes: a failed command's changes are
  /// dropped by reading Health again from the store.
  init(
    records: [HealthRecord], state: HealthSmallState?, seed: UInt64, clock: Date,
    olderThrough: Int64 = 0, olderSynced: [HealthRecord]? = nil,
    loadOlder: @escaping () throws(StoreError) -> [HealthRecord] = { [] }
  ) {
    if let state {
      let snapshot = HealthSnapshot(state: state, records: records)
      if olderThrough > 0 {
        weak var link: HealthLink?
        let older = olderSynced?.filter { $0.position <= olderThrough }
        health = HealthStore(
          snapshot: snapshot, olderRecordsThrough: olderThrough, olderSynced: older
        ) {
          link?.readOlder(through: olderThrough, loadOlder) ?? []
        }
        link = self
        remember(older ?? [])
      } else {
        health = HealthStore(snapshot: snapshot)
      }
    } else {
      health = HealthStore(app: Self.app, seed: seed, clock: clock)
      changedState = health.smallState
      // A new Health: its sync index is complete from the start.
      changes.append(.setDocument(name: Self.syncIndexDocument, value: .bool(true)))
    }
    remember(records)
    health.recorder = { [unowned self] change in self.record(change) }
  }

  /// Why reading the older records failed; Health then answered without them, so nothing
  /// may be committed.
  private(set) var loadFailure: StoreError?

  /// Reads the records at `through` or before, for Health's first need of them.
  private func readOlder(
    through: Int64, _ load: () throws(StoreError) -> [HealthRecord]
  ) -> [HealthRecord] {
    do throws(StoreError) {
      let older = try load().filter { $0.position <= through && !removed.contains($0.position) }
      let newerDeletions = deletions
      deletions = []
      remember(older)
      deletions += newerDeletions
      return older
    } catch {
      loadFailure = error
      return []
    }
  }

  /// Notes live samples and deletion records (in position order).
  private func remember(_ records: [HealthRecord]) {
    for record in records {
      switch record {
      case .sample(let sample, let position): live[sample.uuid!] = position
      case .deletion(let deleted, let position): deletions.append((position, deleted.deletionDate))
      }
    }
  }

  /// Turns one Health change into store changes.
  private func record(_ change: HealthChange) {
    switch change {
    case .sampleSaved(let sample, let position):
      live[sample.uuid!] = position
      let record = HealthRecord.sample(sample, position: position)
      changes.append(.put(StoreRow(HealthRecordCodec.self, record)))
      if sample.syncIdentifier != nil {
        changes.append(.put(StoreRow(HealthSyncIndexCodec.self, record)))
      }
    case .sampleDeleted(let uuid, let position, let date):
      // Health holds the deletion record now; the sample's old row goes.
      guard let old = live.removeValue(forKey: uuid),
        case .deletion(let record, _)? = health.record(at: position)
      else { return }
      removed.insert(old)
      // checked: positions stay below 2^53; Int and Int64 have one width
      changes.append(.remove(table: HealthRecordCodec.tableName, id: Int(old)))
      if record.syncIdentifier != nil {
        // checked: positions stay below 2^53; Int and Int64 have one width
        changes.append(.remove(table: HealthSyncIndexCodec.tableName, id: Int(old)))
      }
      changes.append(.put(StoreRow(HealthRecordCodec.self, .deletion(record, position: position))))
      deletions.append((position, date))
    case .deletedObjectsPurged(let before):
      let dropped = deletions.filter { before == nil || $0.date < before! }
      deletions.removeAll { before == nil || $0.date < before! }
      for item in dropped {
        // checked: positions stay below 2^53; Int and Int64 have one width
        changes.append(.remove(table: HealthRecordCodec.tableName, id: Int(item.position)))
      }
    case .deletedObjectsTrimmed(let keeping):
      let dropCount = max(0, deletions.count - keeping)
      for item in deletions.prefix(dropCount) {
        // checked: positions stay below 2^53; Int and Int64 have one width
        changes.append(.remove(table: HealthRecordCodec.tableName, id: Int(item.position)))
      }
      deletions.removeFirst(dropCount)
    case .stateChanged(let state):
      changedState = state
    }
  }

  /// Makes the `health-sync` table hold exactly the live samples with a sync identifier,
  /// once Health's whole history is in memory; `indexed` is what the table holds now.
  func completeSyncIndex(indexed: [HealthRecord]) {
    guard health.isHistoryLoaded, !isSyncIndexCompleted else { return }
    isSyncIndexCompleted = true
    var wanted: [Int64: HealthRecord] = [:]
    for type in SampleType.allCases {
      for sample in health.allSamples(of: type) where sample.syncIdentifier != nil {
        guard let position = health.position(of: sample.uuid!) else { continue }
        wanted[position] = .sample(sample, position: position)
      }
    }
    for record in indexed where wanted[record.position] == nil {
      // checked: positions stay below 2^53; Int and Int64 have one width
      changes.append(.remove(table: HealthSyncIndexCodec.tableName, id: Int(record.position)))
    }
    let have = Set(indexed.map(\.position))
    for (position, record) in wanted.sorted(by: { $0.key < $1.key }) where !have.contains(position)
    {
      changes.append(.put(StoreRow(HealthSyncIndexCodec.self, record)))
    }
    changes.append(.setDocument(name: Self.syncIndexDocument, value: .bool(true)))
  }

  /// Takes the recorded changes. With `encodingState`, Health's changed small state is
  /// among them as the `health` document; otherwise it is returned as a value (a memory
  /// store keeps it so, which saves encoding it at every commit).
  ///
  /// - Throws: `StoreError.invalidChange` when the state cannot be encoded; nothing is
  ///   taken then.
  func takePending(encodingState: Bool) throws(StoreError) -> (
    changes: [StoreChange], state: HealthSmallState?
  ) {
    var taken = changes
    var state = changedState
    if encodingState, let changedState {
      taken.append(.set(.health, to: try DocumentCoding.encode(changedState)))
      state = nil
    }
    changes = []
    changedState = nil
    return (taken, state)
  }
}
