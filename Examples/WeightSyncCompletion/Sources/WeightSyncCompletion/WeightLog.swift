import Foundation

/// The app's own weight log, kept in a JSON file (or in memory without one). Every
/// method may be called from any thread.
public final class WeightLog: @unchecked Sendable {
  private struct Contents: Codable {
    var entries: [UUID: WeightEntry] = [:]
    /// Manual entries deleted in the app whose samples are still in Health.
    var deletedExports: Set<String> = []
  }

  private let lock = NSLock()
  private let fileURL: URL?
  private var contents = Contents()

  /// A log kept in `fileURL`, loaded from it when the file exists; in memory when nil.
  public init(fileURL: URL? = nil) throws {
    self.fileURL = fileURL
    if let fileURL, FileManager.default.fileExists(atPath: fileURL.path) {
      let data = try Data(contentsOf: fileURL)
      contents = try JSONDecoder().decode(Contents.self, from: data)
    }
  }

  /// Every entry, oldest first.
  public var entries: [WeightEntry] {
    lock.withLock { Array(contents.entries.values) }.sorted {
      ($0.date, $0.id.uuidString) < ($1.date, $1.id.uuidString)
    }
  }

  // MARK: The user's edits

  /// Adds a weight the user typed.
  @discardableResult
  public func addManual(kilograms: Double, at date: Date) throws -> WeightEntry {
    let entry = WeightEntry(
      id: UUID(), kilograms: kilograms, date: date, origin: .manual, healthUUID: nil,
      revision: 1, exportedRevision: nil)
    try change { $0.entries[entry.id] = entry }
    return entry
  }

  /// Changes the weight of a manual entry; its sample in Health is replaced at the next
  /// export.
  public func edit(_ id: UUID, kilograms: Double) throws {
    try change { contents in
      guard var entry = contents.entries[id], entry.isManual else {
        throw WeightSyncError.noManualEntry(id)
      }
      entry.kilograms = kilograms
      entry.revision += 1
      contents.entries[id] = entry
    }
  }

  /// Deletes a manual entry; its sample in Health is deleted at the next export.
  public func deleteManual(_ id: UUID) throws {
    try change { contents in
      guard let entry = contents.entries[id], entry.isManual else {
        throw WeightSyncError.noManualEntry(id)
      }
      contents.entries[id] = nil
      if entry.exportedRevision != nil { contents.deletedExports.insert(entry.syncIdentifier) }
    }
  }

  // MARK: Sync

  /// Applies one batch from Health: adds samples the log does not hold yet (by UUID) and
  /// removes entries imported from deleted samples, then saves. Returns what changed.
  func apply(_ batch: HealthBatch) throws -> ImportSummary {
    var summary = ImportSummary()
    try change { contents in
      let known = Set(contents.entries.values.compactMap(\.healthUUID))
      for weight in batch.added where !known.contains(weight.uuid) {
        let entry = WeightEntry(
          id: UUID(), kilograms: weight.kilograms, date: weight.date,
          origin: .health(sourceName: weight.sourceName), healthUUID: weight.uuid, revision: 1,
          exportedRevision: nil)
        contents.entries[entry.id] = entry
        summary.added.append(entry)
      }
      let deleted = Set(batch.deleted)
      for entry in contents.entries.values
      where !entry.isManual && entry.healthUUID.map(deleted.contains) == true {
        contents.entries[entry.id] = nil
        summary.removed += 1
      }
    }
    return summary
  }

  /// Entries imported from Health that the app's server does not have yet.
  func entriesToUpload() -> [WeightEntry] {
    entries.filter { !$0.isManual && !$0.isUploaded }
  }

  /// Records that the app's server has these entries.
  func markUploaded(_ uploaded: [WeightEntry]) throws {
    try change { contents in
      for entry in uploaded { contents.entries[entry.id]?.isUploaded = true }
    }
  }

  /// Manual entries whose current revision is not in Health yet.
  func entriesToExport() -> [WeightEntry] {
    entries.filter { $0.isManual && $0.exportedRevision != $0.revision }
  }

  /// Sync identifiers of deleted manual entries whose samples are still in Health.
  func deletedExports() -> Set<String> { lock.withLock { contents.deletedExports } }

  /// Records that `entry` at its revision is in Health as sample `uuid`.
  func markExported(_ entry: WeightEntry, as uuid: UUID) throws {
    try change { contents in
      guard var current = contents.entries[entry.id] else { return }
      current.healthUUID = uuid
      current.exportedRevision = entry.revision
      contents.entries[entry.id] = current
    }
  }

  /// Records that the samples of deleted manual entries are gone from Health.
  func forgetDeletedExports(_ identifiers: Set<String>) throws {
    try change { $0.deletedExports.subtract(identifiers) }
  }

  // MARK: Storage

  /// Changes the contents and writes them to the file, all or nothing.
  private func change(_ body: (inout Contents) throws -> Void) throws {
    try lock.withLock {
      var updated = contents
      try body(&updated)
      if let fileURL {
        let data = try JSONEncoder().encode(updated)
        try data.write(to: fileURL, options: .atomic)
      }
      contents = updated
    }
  }
}

/// Samples added and deleted in Health, as the app keeps them.
struct HealthBatch: Sendable {
  struct Weight: Sendable {
    let uuid: UUID
    let kilograms: Double
    let date: Date
    let sourceName: String
  }

  var added: [Weight] = []
  var deleted: [UUID] = []
}

/// What one import changed in the log.
public struct ImportSummary: Sendable, Equatable {
  /// Entries added from Health.
  public var added: [WeightEntry] = []
  /// Entries removed because their sample was deleted in Health.
  public var removed = 0
  /// How many anchored-query pages were read.
  public var pages = 0
}
