import Foundation

extension HealthStore {
  /// Whether `sample` is already saved as it is: a live sample has its UUID and the same
  /// content (the writer and creation date the store set are not compared). Saving it
  /// again changes nothing, as on a device.
  func isAlreadySaved(_ sample: HealthSample) -> Bool {
    guard let uuid = sample.uuid, isKnown(uuid), let live = self.sample(with: uuid) else {
      return false
    }
    return live.hasSameContent(as: sample)
  }

  /// Checks what a correlation holds: a blood-pressure correlation holds exactly one
  /// systolic and one diastolic sample (HKCorrelation's documentation), none of them a
  /// correlation or carrying a sync identifier (the correlation carries it).
  func validateObjects(of correlation: HealthSample) throws(HealthError) {
    let objects = correlation.objects ?? []
    let names = correlation.type.memberTypes.map(\.rawValue).joined(separator: " and ")
    let types = objects.map(\.type)
    guard types.count == correlation.type.memberTypes.count,
      Set(types) == Set(correlation.type.memberTypes)
    else {
      throw HealthError(
        .errorInvalidArgument,
        "a \(correlation.type.rawValue) correlation holds one \(names) sample each; it has "
          + (types.isEmpty ? "none" : types.map(\.rawValue).joined(separator: ", ")))
    }
    for object in objects where object.metadata[MetadataKey.syncIdentifier] != nil {
      guard !isAlreadySaved(object) else { continue }
      throw HealthError(
        .errorInvalidArgument,
        "a correlation's objects cannot carry a sync identifier; put it on the correlation")
    }
  }

  /// The samples deleting `uuids` deletes, in order: each one, and after a correlation its
  /// objects that are still live, when `deletingCorrelationDeletesObjects` is on. Each
  /// UUID appears once.
  func removalOrder(of uuids: [UUID]) -> [UUID] {
    var order: [UUID] = []
    var seen = Set<UUID>()
    for uuid in uuids where seen.insert(uuid).inserted {
      order.append(uuid)
      guard state.settings.deletingCorrelationDeletesObjects,
        let correlation = sample(with: uuid), correlation.type.isCorrelation
      else { continue }
      for object in correlation.objects ?? [] {
        guard let member = object.uuid, isKnown(member), seen.insert(member).inserted else {
          continue
        }
        order.append(member)
      }
    }
    return order
  }

  /// What the app may read of a type: each sample as the app sees it (nil when hidden)
  /// and whether a deleted-object record shows.
  struct ReadFilter {
    let sample: (HealthSample) -> HealthSample?
    let record: (DeletedObjectRecord) -> Bool
  }

  /// The app's read filter for a type (after the permission checks, which may throw).
  /// A correlation shows with those of its objects that are live and that the app may
  /// read, and is hidden when none is; its deleted-object record shows when the app may
  /// read one of the member types (HKCorrelationQuery's documentation).
  func readFilter(for type: SampleType) throws(HealthError) -> ReadFilter {
    guard type.isCorrelation else {
      let scope = try readScope(for: type)
      return ReadFilter(
        sample: { [unowned self] sample in
          isVisible(source: sample.source, start: sample.startDate, in: scope) ? sample : nil
        },
        record: { [unowned self] record in
          isVisible(source: record.source, start: record.startDate, in: scope)
        })
    }
    var scopes: [SampleType: ReadScope] = [:]
    for member in type.memberTypes { scopes[member] = try readScope(for: member) }
    return ReadFilter(
      sample: { [unowned self] correlation in
        let objects = (correlation.objects ?? []).compactMap { object -> HealthSample? in
          guard let uuid = object.uuid, let live = self.sample(with: uuid),
            let scope = scopes[live.type],
            isVisible(source: live.source, start: live.startDate, in: scope)
          else { return nil }
          return live
        }
        return objects.isEmpty ? nil : correlation.with(objects: objects)
      },
      record: { [unowned self] record in
        scopes.values.contains {
          isVisible(source: record.source, start: record.startDate, in: $0)
        }
      })
  }
}
