import Foundation

/// What an app sees of a deleted sample (HKDeletedObject): its UUID and sync metadata only.
public struct DeletedObject: Hashable, Codable, Sendable {
  /// The deleted sample's UUID.
  public let uuid: UUID
  /// Only HKMetadataKeySyncIdentifier and HKMetadataKeySyncVersion survive deletion.
  public let metadata: Metadata
}

/// The store's deleted-object record: the public part plus what predicates need.
public struct DeletedObjectRecord: Hashable, Codable, Sendable {
  /// The deleted sample's UUID.
  public let uuid: UUID
  /// The deleted sample's type.
  public let type: SampleType
  /// The deleted sample's start date, for predicates.
  public let startDate: Date
  /// The deleted sample's end date, for predicates.
  public let endDate: Date
  /// The deleted sample's source, so hidden-read filtering applies.
  public let source: HealthSource
  /// The sync identifier, if the sample had one.
  public let syncIdentifier: String?
  /// The sync version, if the sample had one.
  public let syncVersion: Double?
  /// When the sample was deleted; purges by age use it.
  public let deletionDate: Date

  /// The record for `sample` deleted at `date`.
  public init(deleting sample: HealthSample, at date: Date) {
    uuid = sample.uuid!
    type = sample.type
    startDate = sample.startDate
    endDate = sample.endDate
    source = sample.source ?? .health
    syncIdentifier = sample.syncIdentifier
    syncVersion = sample.syncVersion
    deletionDate = date
  }

  /// The object an app receives.
  public var deletedObject: DeletedObject {
    var metadata: Metadata = [:]
    if let syncIdentifier { metadata[MetadataKey.syncIdentifier] = .string(syncIdentifier) }
    if let syncVersion { metadata[MetadataKey.syncVersion] = .number(syncVersion) }
    return DeletedObject(uuid: uuid, metadata: metadata)
  }
}
