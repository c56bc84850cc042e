import Foundation

extension HealthStore {
  /// What the app may read of a type: everything (maybe from a date), or only its own.
  enum ReadScope {
    case all(notBefore: Date?)
    case own
  }

  func readScope(for type: SampleType) throws(HealthError) -> ReadScope {
    try checkAccess()
    switch state.authorization.readDecision(for: type) {
    case .authorized: return .all(notBefore: state.authorization.readNotBefore[type])
    case .denied: return .own
    case .notDetermined:
      if state.settings.undeterminedReadQuery == .ownSamplesOnly { return .own }
      throw HealthError(
        .errorAuthorizationNotDetermined,
        "reading \(type.rawValue) is not determined; request authorization first")
    }
  }

  func isVisible(source: HealthSource?, start: Date, in scope: ReadScope) -> Bool {
    let own = source?.bundleIdentifier == state.app.source.bundleIdentifier
    switch scope {
    case .own: return own
    case .all(let notBefore):
      guard let notBefore else { return true }
      return own || start >= notBefore
    }
  }

  /// The app's anchored read (HKAnchoredObjectQueryDescriptor.result(for:)): live samples and
  /// kept deleted-object records after `anchor`, interleaved in position order, cut at
  /// `limit` (0 = no limit). Read denial is hidden: only the app's own samples come back.
  /// - Complexity: O(log n + k) for k changes after the anchor when read is allowed: the
  ///   storage is asked for the changes after the anchor, a page at a time with a limit.
  public func anchoredResult(
    type: SampleType, predicate: SamplePredicate? = nil, anchor: QueryAnchor?, limit: Int = 0
  ) throws(HealthError) -> AnchoredQueryResult {
    let filter = try readFilter(for: type)
    if (anchor?.rawValue ?? 0) < unloadedThrough { loadHistory() }
    var changes: [AnchoredChange] = []
    var last: Int64?
    var cursor = anchor?.rawValue ?? 0
    // With a limit, the rows the filters hide are replaced by reading on.
    let page = limit > 0 ? max(limit, 256) : 0
    reading: while limit <= 0 || changes.count < limit {
      let rows = read([]) { try storage.changes(of: type, after: cursor, limit: page) }
      for row in rows {
        guard limit <= 0 || changes.count < limit else { break reading }
        cursor = row.position
        switch row {
        case .sample(let sample, let position):
          if let shown = filter.sample(sample), predicate?.matches(sample) ?? true {
            changes.append(.added(shown, anchor: QueryAnchor(fromValue: position)))
            last = position
          }
        case .deletion(let record, let position):
          if filter.record(record), predicate?.matches(record) ?? true {
            changes.append(.deleted(record.deletedObject, anchor: QueryAnchor(fromValue: position)))
            last = position
          }
        }
      }
      if page == 0 || rows.count < page { break }
    }
    try checkStorage()
    let empty =
      state.settings.emptyResultAnchor == .latestPosition
      ? latestAnchor : (anchor ?? .noAnchor)
    return AnchoredQueryResult(
      changes: changes, newAnchor: last.map { QueryAnchor(fromValue: $0) } ?? empty)
  }

  /// The app's sample query: matching visible samples, sorted, then cut at `limit`.
  /// Without sort descriptors the order is change order (Q2 knob).
  /// - Complexity: O(k log k) for the k samples the storage finds for the predicate.
  public func samples(
    of type: SampleType, predicate: SamplePredicate? = nil, limit: Int = 0,
    sortedBy sortDescriptors: [SampleSortDescriptor] = []
  ) throws(HealthError) -> [HealthSample] {
    var result = try visibleSamples(of: type, predicate: predicate)
    if !sortDescriptors.isEmpty {
      // Enumerated indices keep the sort stable: ties stay in change order.
      result = result.enumerated().sorted { left, right in
        for descriptor in sortDescriptors {
          let a = descriptor.key == .startDate ? left.element.startDate : left.element.endDate
          let b = descriptor.key == .startDate ? right.element.startDate : right.element.endDate
          if a != b { return descriptor.ascending ? a < b : a > b }
        }
        return left.offset < right.offset
      }.map(\.element)
    }
    if limit > 0, result.count > limit { result = Array(result.prefix(limit)) }
    return result
  }

  /// The samples of `type` that match `predicate` and the app may read, in change order.
  func visibleSamples(of type: SampleType, predicate: SamplePredicate?) throws(HealthError)
    -> [HealthSample]
  {
    let filter = try readFilter(for: type)
    loadHistory()
    let found = candidates(of: type, matching: predicate, bundle: nil).compactMap {
      sample -> HealthSample? in
      guard predicate?.matches(sample) ?? true else { return nil }
      return filter.sample(sample)
    }
    try checkStorage()
    return found
  }

  /// The app's statistics over all matching samples (HKStatisticsQuery).
  public func statistics(
    of type: SampleType, predicate: SamplePredicate? = nil, options: StatisticsOptions
  ) throws(HealthError) -> HealthStatistics {
    try options.validate(for: type)
    if let predicate, let start = predicate.startDate, let end = predicate.endDate, start < end,
      let buckets = try storedStatistics(
        of: type, predicate: predicate, options: options, boundaries: [start, end])
    {
      return HealthStatistics(
        type: type, startDate: start, endDate: end, merged: values(of: buckets[0], options),
        bySource: nil)
    }
    let samples = try visibleSamples(of: type, predicate: predicate)
    let start =
      predicate?.startDate ?? samples.map(\.startDate).min() ?? Date(timeIntervalSince1970: 0)
    let end = predicate?.endDate ?? samples.map(\.endDate).max() ?? start
    return statistics(type: type, samples: samples, start: start, end: end, options: options)
  }

  /// The app's statistics in calendar intervals (HKStatisticsCollectionQuery). A discrete
  /// sample counts in the interval holding its start; a cumulative one is pro-rated by
  /// overlap (T10 default).
  public func statisticsCollection(
    of type: SampleType, predicate: SamplePredicate? = nil, options: StatisticsOptions,
    anchorDate: Date, intervalComponents: DateComponents,
    calendar: Calendar = Calendar(identifier: .gregorian)
  ) throws(HealthError) -> StatisticsCollection {
    try options.validate(for: type)
    func index(_ date: Date) -> Int {
      StatisticsCollection.index(
        of: date, anchor: anchorDate, step: intervalComponents, calendar: calendar)
    }
    func start(_ bucket: Int) -> Date {
      StatisticsCollection.start(
        of: bucket, anchor: anchorDate, step: intervalComponents, calendar: calendar)
    }
    var buckets: [Int: HealthStatistics] = [:]
    if let predicate, type.aggregationStyle == .discrete,
      options.isSubset(of: Self.storedOptions),
      let intervals = calendarIntervals(of: predicate, index: index, start: start),
      let stored = try storedStatistics(
        of: type, predicate: predicate, options: options,
        boundaries: intervals.boundaries)
    {
      for (offset, bucket) in stored.enumerated() where bucket.count > 0 {
        let number = intervals.buckets[offset]
        buckets[number] = HealthStatistics(
          type: type, startDate: start(number), endDate: start(number + 1),
          merged: values(of: bucket, options), bySource: nil)
      }
      return StatisticsCollection(
        type: type, anchorDate: anchorDate, intervalComponents: intervalComponents,
        calendar: calendar, buckets: buckets)
    }
    let samples = try visibleSamples(of: type, predicate: predicate)
    var groups: [Int: [HealthSample]] = [:]
    for sample in samples {
      let first = index(sample.startDate)
      var last = first
      if type.aggregationStyle == .cumulative, sample.endDate > sample.startDate {
        // A sample ending exactly at a boundary does not reach into the next interval.
        last = max(first, index(sample.endDate.addingTimeInterval(-1e-6)))
      }
      for bucket in first...last { groups[bucket, default: []].append(sample) }
    }
    for (bucket, members) in groups {
      buckets[bucket] = statistics(
        type: type, samples: members, start: start(bucket), end: start(bucket + 1),
        options: options)
    }
    return StatisticsCollection(
      type: type, anchorDate: anchorDate, intervalComponents: intervalComponents,
      calendar: calendar, buckets: buckets)
  }

  // MARK: Statistics the storage adds up

  /// The statistics a storage adds up.
  static let storedOptions: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]

  /// The most calendar intervals one storage statistics query is asked for.
  static let storedIntervalLimit = 10_000

  /// The boundaries of the calendar intervals that a predicate's date range covers, cut to
  /// that range, and the interval number of each span between them; nil when the predicate
  /// is not a bounded range or covers too many intervals.
  func calendarIntervals(
    of predicate: SamplePredicate, index: (Date) -> Int, start: (Int) -> Date
  ) -> (boundaries: [Date], buckets: [Int])? {
    guard let lower = predicate.startDate, let upper = predicate.endDate, lower < upper else {
      return nil
    }
    let first = index(lower)
    let last = index(upper)
    guard last - first < Self.storedIntervalLimit else { return nil }
    var boundaries = [lower]
    var buckets = [first]
    for bucket in (first + 1)..<(last + 1) {
      let boundary = start(bucket)
      guard boundary > boundaries.last!, boundary < upper else { continue }
      boundaries.append(boundary)
      buckets.append(bucket)
    }
    boundaries.append(upper)
    return (boundaries, buckets)
  }

  /// Discrete statistics added up by the storage, one bucket per interval between
  /// `boundaries`; nil when the storage cannot add them: other options than average,
  /// minimum and maximum, a predicate other than dates (and one source), or samples the
  /// app may not all read, or ones that may match without starting in the range.
  func storedStatistics(
    of type: SampleType, predicate: SamplePredicate, options: StatisticsOptions,
    boundaries: [Date]
  ) throws(HealthError) -> [SampleBucket]? {
    guard type.aggregationStyle == .discrete, !type.isCorrelation,
      options.isSubset(of: Self.storedOptions),
      predicate.filter == nil, predicate.uuids == nil,
      predicate.sourceBundleIdentifiers.map({ $0.count == 1 }) ?? true,
      let lower = boundaries.first
    else { return nil }
    var bundle = predicate.sourceBundleIdentifiers?.first
    switch try readScope(for: type) {
    case .all(let notBefore):
      guard notBefore.map({ $0 <= lower }) ?? true else { return nil }
    case .own:
      let own = state.app.source.bundleIdentifier
      guard bundle == nil || bundle == own else { return nil }
      bundle = own
    }
    loadHistory()
    // Matching by overlap or by end date is matching by start when no sample lasts.
    guard
      predicate.options.contains(.strictStartDate)
        || read(nil, { try storage.longestDuration(of: type) }) == 0
    else { return nil }
    let buckets = read([]) {
      try storage.statistics(of: type, boundaries: boundaries, bundle: bundle)
    }
    try checkStorage()
    return buckets
  }

  /// The values a discrete statistics query asks for, from a storage's bucket.
  func values(of bucket: SampleBucket, _ options: StatisticsOptions) -> HealthStatistics.Values {
    var result = HealthStatistics.Values()
    guard bucket.count > 0 else { return result }
    if options.contains(.discreteAverage) { result.average = bucket.sum / Double(bucket.count) }
    if options.contains(.discreteMin) { result.minimum = bucket.minimum }
    if options.contains(.discreteMax) { result.maximum = bucket.maximum }
    return result
  }

  // MARK: Computation

  /// Source priority (T5): the user's explicit order first, then manual entries, then
  /// Apple's sources, then third parties. Lower ranks first.
  func priority(of sample: HealthSample) -> SourceRank {
    let bundle = sample.source?.bundleIdentifier ?? ""
    if let index = state.settings.sourcePriority.firstIndex(of: bundle) {
      return SourceRank(group: 0, index: index, bundle: bundle)
    }
    if sample.wasUserEntered { return SourceRank(group: 1, index: 0, bundle: bundle) }
    if bundle.hasPrefix("com.apple.") { return SourceRank(group: 2, index: 0, bundle: bundle) }
    return SourceRank(group: 3, index: 0, bundle: bundle)
  }

  func statistics(
    type: SampleType, samples: [HealthSample], start: Date, end: Date, options: StatisticsOptions
  ) -> HealthStatistics {
    let merged = values(of: samples, type: type, start: start, end: end, options: options)
    var bySource: [HealthSource: HealthStatistics.Values]?
    if options.contains(.separateBySource) {
      let grouped = Dictionary(grouping: samples) { $0.source ?? .health }
      bySource = grouped.mapValues {
        values(of: $0, type: type, start: start, end: end, options: options)
      }
    }
    return HealthStatistics(
      type: type, startDate: start, endDate: end, merged: merged, bySource: bySource)
  }

  func values(
    of samples: [HealthSample], type: SampleType, start: Date, end: Date,
    options: StatisticsOptions
  ) -> HealthStatistics.Values {
    var result = HealthStatistics.Values()
    guard !samples.isEmpty else { return result }
    if type.aggregationStyle == .discrete {
      let values = samples.map(\.value)
      if options.contains(.discreteAverage) {
        result.average = values.reduce(0, +) / Double(values.count)
      }
      if options.contains(.discreteMin) { result.minimum = values.min() }
      if options.contains(.discreteMax) { result.maximum = values.max() }
      if options.contains(.mostRecent) {
        let latest = samples.min { a, b in
          if a.endDate != b.endDate { return a.endDate > b.endDate }
          return priority(of: a) < priority(of: b)
        }!
        result.mostRecent = latest.value
        result.mostRecentDateInterval = DateInterval(start: latest.startDate, end: latest.endDate)
      }
      return result
    }
    let (sum, covered) = prioritizedSum(of: samples, start: start, end: end)
    if options.contains(.cumulativeSum) { result.sum = sum }
    if options.contains(.duration) { result.duration = covered }
    return result
  }

  /// Sums cumulative samples over [start, end), pro-rating by overlap; where sources
  /// overlap in time, the higher-priority source's samples count and the others' do not.
  func prioritizedSum(of samples: [HealthSample], start: Date, end: Date) -> (Double, Double) {
    let lower = start.timeIntervalSinceReferenceDate
    let upper = end.timeIntervalSinceReferenceDate
    var covered: [(Double, Double)] = []
    var sum = 0.0
    let bySource = Dictionary(grouping: samples) { priority(of: $0) }
    for key in bySource.keys.sorted(by: <) {
      var mine: [(Double, Double)] = []
      for sample in bySource[key]! {
        let s = sample.startDate.timeIntervalSinceReferenceDate
        let e = sample.endDate.timeIntervalSinceReferenceDate
        if s == e {
          if s >= lower, s < upper, !covered.contains(where: { $0.0 <= s && s < $0.1 }) {
            sum += sample.value
          }
          continue
        }
        let a = max(s, lower)
        let b = min(e, upper)
        guard b > a else { continue }
        let free: Double = (b - a) - overlap(of: (a, b), with: covered)
        sum += sample.value * free / (e - s)
        mine.append((a, b))
      }
      for interval in mine { covered = union(covered, interval) }
    }
    return (sum, covered.reduce(0) { $0 + ($1.1 - $1.0) })
  }

  private func overlap(of interval: (Double, Double), with covered: [(Double, Double)]) -> Double {
    covered.reduce(0) { $0 + max(0, min($1.1, interval.1) - max($1.0, interval.0)) }
  }

  private func union(_ covered: [(Double, Double)], _ interval: (Double, Double))
    -> [(Double, Double)]
  {
    var result: [(Double, Double)] = []
    var current = interval
    for existing in covered {
      if existing.1 < current.0 || existing.0 > current.1 {
        result.append(existing)
      } else {
        current = (min(current.0, existing.0), max(current.1, existing.1))
      }
    }
    result.append(current)
    return result.sorted { $0.0 < $1.0 }
  }
}

/// A sample's place in Health's source priority; lower sorts first and wins overlaps.
struct SourceRank: Hashable, Comparable {
  let group: Int
  let index: Int
  let bundle: String

  static func < (lhs: SourceRank, rhs: SourceRank) -> Bool {
    (lhs.group, lhs.index, lhs.bundle) < (rhs.group, rhs.index, rhs.bundle)
  }
}
