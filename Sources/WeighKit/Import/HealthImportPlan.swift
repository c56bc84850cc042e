import Foundation
import HealthSim

/// What `import … types …` adds to Health: new samples grouped by the source that saves
/// them, and the counts for its report.
struct HealthImportPlan {
  /// New samples of one source revision, in file order, with their lines.
  struct Batch {
    var revision: SourceRevision
    var samples: [(sample: HealthSample, line: Int, repaired: Bool)]
  }

  /// The types asked for, in the order the report lists them.
  let types: [ImportDataType]
  var batches: [Batch] = []
  /// Samples Health already has, and repeats within the file.
  var alreadyPresent = 0
  /// Records that could not be taken, and samples Health refused.
  var rejections: [ImportRejection] = []
  /// Samples saved, by type; filled by `save`.
  private(set) var imported: [SampleType: Int] = [:]
  /// Records taken (imported or already present) whose tag the reader repaired (attribute
  /// names with spaces, kept as metadata); final after `save`.
  private(set) var repairedRecords = 0

  /// Samples read so far, not yet checked against Health.
  private var candidates: [(imported: HealthExportMapping.Imported, line: Int, repaired: Bool)] =
    []
  /// Devices and sources read so far.
  private let cache = HealthExportMapping.Cache()

  /// An empty plan for `types` (weights are the log's business and are left out).
  init(types: Set<ImportDataType>) {
    self.types = ImportDataType.allCases.filter { types.contains($0) && $0 != .weight }
  }

  /// Takes one record or workout as the reader hands it over: maps it to a sample at once,
  /// so only the sample is kept, or records why not.
  mutating func take(_ item: HealthExportItem, line: Int) {
    do {
      switch item {
      case .record(let record):
        // Records of types not asked for (or not modelled) are not imported.
        guard let type = SampleType(identifier: record.type),
          types.contains(where: { $0.sampleType == type })
        else { return }
        candidates.append(
          (
            try HealthExportMapping.sample(from: record, type: type, line: line, cache: cache),
            line, record.repairedAttributes
          ))
      case .workout(let workout):
        candidates.append(
          (
            try HealthExportMapping.sample(from: workout, line: line, cache: cache), line,
            workout.repairedAttributes
          ))
      case .invalid(let rejection):
        rejections.append(rejection)
      default:
        return
      }
    } catch let rejection {
      rejections.append(rejection)
    }
  }

  /// Decides, once the whole file is read, which samples are new to Health.
  ///
  /// A sample is already present when Health has a live sample of the same type and
  /// source name, starting in the same second, with the same value (within 1e-9 of it);
  /// for a workout the value is its duration. Samples after the clock are rejected.
  ///
  /// - Complexity: O(n + m) hashing for n samples in Health and m in the file.
  mutating func decide(in session: Session) throws(Diagnostic) {
    let health = try session.health()
    var present: [Key: [Double]] = [:]
    for type in types {
      for sample in health.allSamples(of: type.sampleType) {
        present[Key(sample.type, sample.source?.name ?? "", sample.startDate), default: []]
          .append(sample.value)
      }
    }
    let latest = Date(seconds: session.now + 60)
    var batchIndex: [SourceRevision: Int] = [:]
    for (imported, line, repaired) in candidates {
      let sample = imported.sample
      let key = Key(sample.type, imported.revision.source.name, sample.startDate)
      let value = sample.value
      if present[key]?.contains(where: { abs($0 - value) <= 1e-9 * max(1, abs(value)) }) ?? false {
        alreadyPresent += 1
        if repaired { repairedRecords += 1 }
        continue
      }
      guard sample.startDate <= latest else {
        let start = Instant.seconds(of: sample.startDate)
        rejections.append(
          ImportRejection(
            line: line,
            reason:
              "\(session.zone.minuteText(start)) is after the clock (\(session.zone.minuteText(session.now))); move the clock forward or fix the date"
          ))
        continue
      }
      present[key, default: []].append(value)
      if repaired { repairedRecords += 1 }
      if let index = batchIndex[imported.revision] {
        batches[index].samples.append((sample, line, repaired))
      } else {
        batchIndex[imported.revision] = batches.count
        batches.append(Batch(revision: imported.revision, samples: [(sample, line, repaired)]))
      }
    }
    candidates = []
    isEmpty = batches.isEmpty
  }

  /// Whether nothing is (or was) to be saved.
  private(set) var isEmpty = true

  /// Saves every batch as its source; a batch Health refuses is saved sample by sample so
  /// that only the refused samples are rejected. A sample with a sync identifier Health
  /// already has at this version or higher counts as already present.
  mutating func save(in session: Session) throws(Diagnostic) {
    let health = try session.health()
    for batch in batches {
      do throws(HealthError) {
        let saved = try health.save(batch.samples.map(\.sample), as: batch.revision)
        count(saved, of: batch.samples.count)
      } catch {
        for (sample, line, repaired) in batch.samples {
          do throws(HealthError) {
            count(try health.save([sample], as: batch.revision), of: 1)
          } catch {
            if repaired { repairedRecords -= 1 }
            rejections.append(
              ImportRejection(line: line, reason: "Health refused it: \(error.message)"))
          }
        }
      }
    }
    // Health has them now; the commit that follows needs the memory.
    batches = []
  }

  private mutating func count(_ saved: [HealthSample], of total: Int) {
    for sample in saved { imported[sample.type, default: 0] += 1 }
    alreadyPresent += total - saved.count
  }

  /// `Health: imported 3 (glucose 2, workouts 1), already present 0, rejected 1 (first: …)`.
  var summary: String {
    let total = imported.values.reduce(0, +)
    var line = "Health: imported \(total)"
    let parts = types.compactMap { type -> String? in
      guard let count = imported[type.sampleType], count > 0 else { return nil }
      return "\(type.rawValue) \(count)"
    }
    if !parts.isEmpty { line += " (\(parts.joined(separator: ", ")))" }
    line += ", already present \(alreadyPresent), rejected \(rejections.count)"
    if let first = rejections.min(by: { $0.line < $1.line }) {
      line += " (first: line \(first.line): \(first.reason))"
    }
    return line
  }

  struct Key: Hashable {
    var type: SampleType
    var source: String
    var start: Int64

    init(_ type: SampleType, _ source: String, _ start: Date) {
      self.type = type
      self.source = source
      self.start = Instant.seconds(of: start)
    }
  }
}
