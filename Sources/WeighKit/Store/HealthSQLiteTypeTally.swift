import HealthSim

/// What a writer's transaction changed per sample type: the live samples' and deleted-object
/// records' counts and the longest duration written, in an array indexed by the type's code
/// (`HealthSQLiteTypeCode`).
///
/// Two dictionaries keyed by type hashed the type three times for every row written (the
/// count's change, the longest duration read and written): about 600 instructions a row of
/// the all-types import, now under 100 (callgrind, the 10 MB export; docs/performance.md,
/// "The saving thread's storage, again (hsave12)").
struct HealthSQLiteTypeTally {
  private struct Entry {
    var samples: Int64 = 0
    var deletions: Int64 = 0
    /// Whether a count changed (even to a net change of 0), as a dictionary's entry is there.
    var counted = false
    var longest: Double?
  }

  /// One entry per code, 0 unused.
  private var entries = [Entry](repeating: Entry(), count: Self.slots)
  // checked: the type codes are small positive integers (HealthSQLiteTypeCode)
  private static let slots = Int(SampleType.allCases.map(HealthSQLiteTypeCode.code).max() ?? 0) + 1

  private static func slot(_ type: SampleType) -> Int {
    // checked: a type's code is one of the small constants of `HealthSQLiteTypeCode.code`
    Int(HealthSQLiteTypeCode.code(type))
  }

  /// Changes the count of `type`'s live samples, or deleted-object records, by `delta`.
  mutating func count(_ type: SampleType, isDeletion: Bool, by delta: Int64) {
    let slot = Self.slot(type)
    entries[slot].counted = true
    if isDeletion {
      entries[slot].deletions += delta
    } else {
      entries[slot].samples += delta
    }
  }

  /// Notes a sample of `type` lasting `duration`.
  mutating func noteDuration(_ duration: Double, of type: SampleType) {
    let slot = Self.slot(type)
    entries[slot].longest = max(entries[slot].longest ?? 0, duration)
  }

  /// The changes of the counts, for each type whose counts changed.
  var counts: [SampleType: (samples: Int64, deletions: Int64)] {
    var counts: [SampleType: (samples: Int64, deletions: Int64)] = [:]
    for type in SampleType.allCases where entries[Self.slot(type)].counted {
      let entry = entries[Self.slot(type)]
      counts[type] = (entry.samples, entry.deletions)
    }
    return counts
  }

  /// The longest duration of the samples written, for each type that had one.
  var longest: [SampleType: Double] {
    var longest: [SampleType: Double] = [:]
    for type in SampleType.allCases {
      if let duration = entries[Self.slot(type)].longest { longest[type] = duration }
    }
    return longest
  }

  /// The change of `type`'s counts, nil when none changed.
  func counts(of type: SampleType) -> (samples: Int64, deletions: Int64)? {
    let entry = entries[Self.slot(type)]
    return entry.counted ? (entry.samples, entry.deletions) : nil
  }

  /// The longest duration of the samples of `type` written, nil when none was.
  func longest(of type: SampleType) -> Double? { entries[Self.slot(type)].longest }
}
