import Foundation
import HealthSim

/// The simulated Health store as the session holds it: loaded from Health's storage
/// (`health.sqlite`, or memory) on first use, and every change it makes kept as Health's
/// change feed for the next commit, which applies it to the storage.
final class HealthLink {
  let health: HealthStore
  /// Changes recorded since the last commit, the small state's left out.
  private var changes: [HealthChange] = []
  /// Health's small state when it changed since the last commit; written once per command,
  /// because it changes with every scheduled event.
  private var changedState: HealthSmallState?

  /// Whether anything waits for the next commit.
  var hasPending: Bool { !changes.isEmpty || changedState != nil }

  /// The app's identity in Health.
  static let app = SourceRevision(
    source: HealthSource(name: "weigh", bundleIdentifier: "org.weigh.app"),
    version: WeighVersion.current)

  /// A storage's Health: `records` with `state`, or a new one when there is no state.
  ///
  /// - Parameters:
  ///   - olderThrough: when positive, `records` holds only the records after this position,
  ///     and `loadOlder` reads them all the first time Health needs the rest.
  ///   - olderSynced: with `olderThrough`, the live samples with a sync identifier at that
  ///     position or before, when the storage can list them without reading the rest.
  ///
  /// A failed command's changes are dropped by reading Health again from the storage.
  init(
    records: [HealthRecord], state: HealthSmallState?, seed: UInt64, clock: Date,
    olderThrough: Int64 = 0, olderSynced: [HealthRecord]? = nil,
    loadOlder: @escaping () throws(StoreError) -> [HealthRecord] = { [] }
  ) {
    if let state {
      let snapshot = HealthSnapshot(state: state, records: records)
      if olderThrough > 0 {
        weak var link: HealthLink?
        health = HealthStore(
          snapshot: snapshot, olderRecordsThrough: olderThrough, olderSynced: olderSynced
        ) {
          link?.readOlder(loadOlder) ?? []
        }
        link = self
      } else {
        health = HealthStore(snapshot: snapshot)
      }
    } else {
      health = HealthStore(app: Self.app, seed: seed, clock: clock)
      changedState = health.smallState
    }
    health.recorder = { [unowned self] change in self.record(change) }
  }

  /// Why reading the older records failed; Health then answered without them, so nothing
  /// may be committed.
  private(set) var loadFailure: StoreError?

  /// Reads the older records, for Health's first need of them (it keeps those it needs).
  private func readOlder(_ load: () throws(StoreError) -> [HealthRecord]) -> [HealthRecord] {
    do throws(StoreError) {
      return try load()
    } catch {
      loadFailure = error
      return []
    }
  }

  /// Keeps one Health change for the next commit.
  private func record(_ change: HealthChange) {
    if case .stateChanged(let state) = change {
      changedState = state
    } else {
      changes.append(change)
    }
  }

  /// Takes the recorded changes (the small state's apart).
  func takePending() -> (changes: [HealthChange], state: HealthSmallState?) {
    defer {
      changes = []
      changedState = nil
    }
    return (changes, changedState)
  }
}
