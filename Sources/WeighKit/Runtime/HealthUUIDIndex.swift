/// Entry numbers by Health UUID, and the reverse, for sync.
struct HealthUUIDIndex {
  private(set) var entryByUUID: [String: Int] = [:]
  private var uuidByEntry: [Int: String] = [:]

  init(_ entries: [Entry]) {
    for entry in entries {
      if let uuid = entry.healthUUID { set(uuid, entry.id) }
    }
  }

  private mutating func set(_ uuid: String, _ id: Int) {
    entryByUUID[uuid] = id
    uuidByEntry[id] = uuid
  }

  private mutating func forget(entry id: Int) {
    if let uuid = uuidByEntry.removeValue(forKey: id) { entryByUUID[uuid] = nil }
  }

  /// Forgets the entries numbered `ids`: by the index's own entries when the run is longer
  /// (an undo of a large import, whose entries mostly have no sample).
  private mutating func forget(entries ids: IDStepRun) {
    guard ids.count > uuidByEntry.count else {
      for id in ids { forget(entry: id) }
      return
    }
    for id in uuidByEntry.keys where ids.contains(id) { forget(entry: id) }
  }

  /// Follows committed changes to the entries table.
  mutating func apply(_ changes: [StoreChange]) {
    for change in changes {
      switch change {
      case .put(let row) where row.table == EntryCodec.tableName:
        guard let entry = row.value(EntryCodec.self) else { continue }
        forget(entry: entry.id)
        if let uuid = entry.healthUUID { set(uuid, entry.id) }
      case .putRun(let run) where run.table == EntryCodec.tableName:
        guard let entries = run.values(EntryCodec.self) else { continue }
        for entry in entries {
          forget(entry: entry.id)
          if let uuid = entry.healthUUID { set(uuid, entry.id) }
        }
      case .remove(let table, let id) where table == EntryCodec.tableName:
        forget(entry: id)
      case .removeRun(let table, let ids) where table == EntryCodec.tableName:
        for run in ids.runs { forget(entries: run) }
      default:
        continue
      }
    }
  }
}
