import Foundation

/// The app's own weights, kept in a JSON file (or only in memory without one).
public actor WeightJournal {
  private struct Contents: Codable {
    var entries: [UUID: WeightEntry] = [:]
    /// Manual entries deleted in the app whose samples are still in Health.
    var deletedExports: Set<String> = []
  }

  private let fileURL: URL?
  private var contents = Contents()

  /// A journal kept in `fileURL`, read from it when the file exists; in memory when nil.
  public init(fileURL: URL? = nil) throws {
    self.fileURL = fileURL
    if let fileURL, FileManager.default.fileExists(atPath: fileURL.path) {
      contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: fileURL))
    }
  }

  /// Every entry, oldest first.
  public var entries: [WeightEntry] {
    contents.entries.values.sorted { ($0.date, $0.id.uuidString) < ($1.date, $1.id.uuidString) }
  }

  // MARK: The user's edits

  /// Adds a weight the user typed.
  @discardableResult
  public func addManual(kilograms: Double, at date: Date) throws -> WeightEntry {
    let entry = WeightEntry(kilograms: kilograms, date: date, origin: .manual)
    try change { $0.entries[entry.id] = entry }
    return entry
  }

  /// Changes a manual entry's weight; its sample in Health is replaced at the next export.
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

  /// Applies a page from Health and saves: adds the weights the journal does not hold yet
  /// (by sample UUID) and removes the entries imported from deleted samples.
  func apply(added: [HealthWeight], deleted: [UUID]) throws -> (added: [WeightEntry], removed: Int)
  {
    var result: (added: [WeightEntry], removed: Int) = ([], 0)
    try change { contents in
      let known = Set(contents.entries.values.compactMap(\.healthUUID))
      for weight in added where !known.contains(weight.uuid) {
        let entry = WeightEntry(
          kilograms: weight.kilograms, date: weight.date,
          origin: .health(sourceName: weight.sourceName), healthUUID: weight.uuid)
        contents.entries[entry.id] = entry
        result.added.append(entry)
      }
      let gone = Set(deleted)
      for entry in contents.entries.values
      where !entry.isManual && entry.healthUUID.map(gone.contains) == true {
        contents.entries[entry.id] = nil
        result.removed += 1
      }
    }
    return result
  }

  /// Imported entries the app's server does not have yet.
  func entriesToUpload() -> [WeightEntry] { entries.filter { !$0.isManual && !$0.isUploaded } }

  /// Records that the server has these entries.
  func markUploaded(_ uploaded: [WeightEntry]) throws {
    try change { contents in
      for entry in uploaded { contents.entries[entry.id]?.isUploaded = true }
    }
  }

  /// Manual entries whose current revision is not in Health yet.
  func entriesToExport() -> [WeightEntry] {
    entries.filter { $0.isManual && $0.exportedRevision != $0.revision }
  }

  /// Records that `entry`, at its revision, is in Health as sample `uuid`.
  func markExported(_ entry: WeightEntry, as uuid: UUID) throws {
    try change { contents in
      contents.entries[entry.id]?.healthUUID = uuid
      contents.entries[entry.id]?.exportedRevision = entry.revision
    }
  }

  /// Sync identifiers of deleted manual entries whose samples are still in Health.
  func deletedExports() -> Set<String> { contents.deletedExports }

  /// Records that the samples of deleted manual entries are gone from Health.
  func forgetDeletedExports(_ identifiers: Set<String>) throws {
    try change { $0.deletedExports.subtract(identifiers) }
  }

  /// Changes the contents and writes them to the file, all or nothing.
  private func change(_ body: (inout Contents) throws -> Void) throws {
    var updated = contents
    try body(&updated)
    if let fileURL { try JSONEncoder().encode(updated).write(to: fileURL, options: .atomic) }
    contents = updated
  }
}

/// A weight from Health, as the journal keeps it.
struct HealthWeight: Sendable {
  let uuid: UUID
  let kilograms: Double
  let date: Date
  let sourceName: String
}

/// What one sync changed in the journal.
public struct ImportSummary: Sendable, Equatable {
  /// Entries added from Health.
  public var added: [WeightEntry] = []
  /// Entries removed because their sample was deleted in Health.
  public var removed = 0
  /// How many anchored-query pages were read.
  public var pages = 0
}
