import Foundation

/// The UUIDs a `HealthStore`'s generator draws next, in order, each with whether a live
/// sample had it when the storage was asked about them all in one call (`freshUUID`).
/// `take` hands them out in the order they are drawn; a UUID drawn out of that order
/// (the generator reseeded, or drawn elsewhere) ends them.
struct UUIDsAhead {
  /// How many UUIDs are asked about at once.
  static let count = 32

  private var uuids: [UUID] = []
  private var live: [Bool] = []
  private var next = 0
  /// The UUIDs not handed out yet.
  private var waiting: Set<UUID> = []

  init() {}

  /// `uuids` in the order the generator draws them, with those `live` has.
  init(_ uuids: [UUID], live: Set<UUID>) {
    self.uuids = uuids
    self.live = uuids.map { live.contains($0) }
    waiting = Set(uuids)
  }

  /// Whether every UUID was handed out (or none asked about).
  var isEmpty: Bool { next == uuids.count }

  /// Whether `uuid` is one still to be handed out.
  func holds(_ uuid: UUID) -> Bool { waiting.contains(uuid) }

  /// Whether a live sample had `uuid`, when it is the next one; nil otherwise.
  mutating func take(_ uuid: UUID) -> Bool? {
    guard next < uuids.count, uuids[next] == uuid else { return nil }
    next += 1
    waiting.remove(uuid)
    return live[next - 1]
  }
}
