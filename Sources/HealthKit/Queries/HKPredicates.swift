// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (HealthKit's global names are Apple's and must be spelled as Apple spells them.)
import HealthSim

/// Sort keys HealthKit's sample queries understand.
public let HKSampleSortIdentifierStartDate = "startDate"
/// The sort key for a sample's end date.
public let HKSampleSortIdentifierEndDate = "endDate"
/// "No limit" for sample and anchored queries.
public let HKObjectQueryNoLimit = 0

/// How a date predicate compares sample dates (HKQueryOptions).
public struct HKQueryOptions: OptionSet, Sendable {
  /// The options as bits.
  public let rawValue: UInt
  /// Options from their bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Only samples that start within the interval.
  public static let strictStartDate = HKQueryOptions(rawValue: 1)
  /// Only samples that end within the interval.
  public static let strictEndDate = HKQueryOptions(rawValue: 2)

  var simulated: QueryOptions {
    var options: QueryOptions = []
    if contains(.strictStartDate) { options.insert(.strictStartDate) }
    if contains(.strictEndDate) { options.insert(.strictEndDate) }
    return options
  }
}

/// A predicate built by one of HKQuery's factory methods. It evaluates engine samples and
/// deleted-object records directly; `direct`, when set, is the same condition in the
/// engine's own terms (dates, sources, UUIDs), which the engine applies with its indexes.
final class HKPredicate: NSPredicate {
  let direct: SamplePredicate?
  let matchesSample: @Sendable (HealthSample) -> Bool
  let matchesDeletion: @Sendable (DeletedObjectRecord) -> Bool

  init(
    direct: SamplePredicate? = nil, sample: @escaping @Sendable (HealthSample) -> Bool,
    deletion: @escaping @Sendable (DeletedObjectRecord) -> Bool
  ) {
    self.direct = direct
    matchesSample = sample
    matchesDeletion = deletion
    super.init(block: { object, _ in
      guard let object = object as? HKSample, let simulated = try? object.simulatedSample() else {
        return false
      }
      return sample(simulated)
    })
  }

  convenience init(direct: SamplePredicate) {
    self.init(
      direct: direct,
      sample: {
        direct.matches(start: $0.startDate, end: $0.endDate, source: $0.source, uuid: $0.uuid)
      },
      deletion: {
        direct.matches(start: $0.startDate, end: $0.endDate, source: $0.source, uuid: $0.uuid)
      })
  }

  required init?(coder: NSCoder) { nil }
}

extension SamplePredicate {
  /// The same test the engine applies, for predicates evaluated in this module.
  func matches(start: Date, end: Date, source: HealthSource?, uuid: UUID?) -> Bool {
    if let sourceBundleIdentifiers {
      guard let source, sourceBundleIdentifiers.contains(source.bundleIdentifier) else {
        return false
      }
    }
    if let uuids {
      guard let uuid, uuids.contains(uuid) else { return false }
    }
    return matchesDates(start: start, end: end)
  }
}

/// Turns the app's NSPredicate (HKQuery's factories, NSCompoundPredicate of them, or any
/// block or value predicate) into the engine's predicate.
enum PredicateBridge {
  static func simulated(_ predicate: NSPredicate?) -> SamplePredicate? {
    guard let predicate else { return nil }
    if let leaf = predicate as? HKPredicate, let direct = leaf.direct { return direct }
    let tree = Node(predicate)
    var result = SamplePredicate(
      filter: SampleFilter(sample: { tree.matches($0) }, deletion: { tree.matches($0) }))
    // The interval of a conjunction's date predicate also bounds statistics, as on a device.
    if let dates = tree.conjunctionDates {
      result.startDate = dates.startDate
      result.endDate = dates.endDate
      result.options = dates.options
    }
    return result
  }

  /// An immutable copy of a predicate tree, safe to evaluate from any thread.
  private indirect enum Node: Sendable {
    case leaf(Leaf)
    case and([Node])
    case or([Node])
    case not(Node)
    case other(UncheckedPredicate)

    init(_ predicate: NSPredicate) {
      if let leaf = predicate as? HKPredicate {
        self = .leaf(Leaf(predicate: leaf))
      } else if let compound = predicate as? NSCompoundPredicate {
        let parts = compound.subpredicates.map(Node.init)
        switch compound.compoundPredicateType {
        case .and: self = .and(parts)
        case .or: self = .or(parts)
        case .not: self = .not(parts.first.map { .and([$0]) } ?? .and([]))
        @unknown default: self = .and(parts)
        }
      } else {
        self = .other(UncheckedPredicate(predicate: predicate))
      }
    }

    func matches(_ sample: HealthSample) -> Bool {
      switch self {
      case .leaf(let leaf): return leaf.predicate.matchesSample(sample)
      case .and(let parts): return parts.allSatisfy { $0.matches(sample) }
      case .or(let parts): return parts.contains { $0.matches(sample) }
      case .not(let part): return !part.matches(sample)
      case .other(let other): return other.predicate.evaluate(with: HKSample.from(sample))
      }
    }

    func matches(_ record: DeletedObjectRecord) -> Bool {
      switch self {
      case .leaf(let leaf): return leaf.predicate.matchesDeletion(record)
      case .and(let parts): return parts.allSatisfy { $0.matches(record) }
      case .or(let parts): return parts.contains { $0.matches(record) }
      case .not(let part): return !part.matches(record)
      case .other: return true
      }
    }

    var conjunctionDates: SamplePredicate? {
      switch self {
      case .leaf(let leaf):
        guard let direct = leaf.predicate.direct, direct.startDate != nil || direct.endDate != nil
        else {
          return nil
        }
        return direct
      case .and(let parts): return parts.lazy.compactMap(\.conjunctionDates).first
      default: return nil
      }
    }
  }

  /// One of HKQuery's predicates; immutable.
  private struct Leaf: @unchecked Sendable {
    let predicate: HKPredicate
  }

  /// An app's own NSPredicate; evaluated only while the device's lock is held.
  private struct UncheckedPredicate: @unchecked Sendable {
    let predicate: NSPredicate
  }
}

extension NSSortDescriptor {
  /// HealthKit's sort keys (`HKSampleSortIdentifierStartDate`, `…EndDate`). Foundation on
  /// Linux has no key-value coding, so this overload maps them to key paths of HKSample;
  /// any other key sorts by start date.
  public convenience init(key: String?, ascending: Bool) {
    if key == HKSampleSortIdentifierEndDate {
      self.init(keyPath: \HKSample.endDate, ascending: ascending)
    } else {
      self.init(keyPath: \HKSample.startDate, ascending: ascending)
    }
  }

  /// The engine's sort key, for descriptors on HKSample dates.
  var simulated: SampleSortDescriptor {
    SampleSortDescriptor(
      keyPath == \HKSample.endDate ? .endDate : .startDate, ascending: ascending)
  }
}
