import Foundation
import HealthSim

extension HealthImportPlan {
  /// Samples read and records rejected while reading, handed from the reader to the saving
  /// in file order.
  struct Batch: Sendable {
    var candidates: [Candidate] = []
    /// Records that could not be taken (in file order).
    var rejections: [ImportRejection] = []
    /// The distinct source revisions of `candidates`, in the order first read: a
    /// candidate's `group` is its revision's index here.
    var revisions: [SourceRevision] = []
    /// The start seconds of `candidates` by type, the types in the order first read.
    var starts = HealthImportPlan.Starts()

    /// The samples held.
    var held: Int { candidates.count }
  }

  /// The reader's side of an import: maps each record or workout to a sample as it is read,
  /// so only the sample is kept, or records why not, and cuts the samples into batches of
  /// `batchSize`.
  struct BatchReader {
    let types: [ImportDataType]
    let batchSize: Int
    private var batch = Batch()
    /// Devices and sources read so far.
    private let cache = HealthExportMapping.Cache()
    /// The last record type read, and the type it imports as (nil: not imported).
    private var lastType: (identifier: String, type: SampleType?) = ("", nil)
    /// The index in `batch.revisions` of each of them (asked past `revisionsCompared`).
    private var revisionIndex: [SourceRevision: Int] = [:]

    init(types: [ImportDataType], batchSize: Int) {
      self.types = types
      self.batchSize = batchSize
    }

    /// The samples held, not yet handed over.
    var held: Int { batch.held }

    /// Takes one item; returns the batch once it holds `batchSize` samples.
    mutating func take(_ item: HealthExportItem, line: Int) -> Batch? {
      do {
        switch item {
        case .record(let record):
          // Records of types not asked for (or not modelled) are not imported.
          if lastType.identifier != record.type {
            let type = SampleType(identifier: record.type)
            lastType = (
              record.type, types.contains(where: { $0.sampleType == type }) ? type : nil
            )
          }
          guard let type = lastType.type else { return nil }
          add(
            try HealthExportMapping.sample(from: record, type: type, line: line, cache: cache),
            line: line, repaired: record.repairedAttributes)
        case .workout(let workout):
          add(
            try HealthExportMapping.sample(from: workout, line: line, cache: cache),
            line: line, repaired: workout.repairedAttributes)
        case .invalid(let rejection):
          batch.rejections.append(rejection)
        default:
          return nil
        }
      } catch let rejection {
        batch.rejections.append(rejection)
      }
      guard batch.candidates.count >= batchSize else { return nil }
      return rest()
    }

    /// Adds a sample read, with the index of its source revision among the batch's.
    private mutating func add(_ imported: HealthExportMapping.Imported, line: Int, repaired: Bool) {
      let group = group(of: imported.revision)
      // The sample's own checks for a save, made here: nil when one fails, and the saving
      // thread's save then makes them again and refuses the sample in their words. The row of
      // a sample with nested parts is made and read back here too (`HealthSQLitePreparedRow`),
      // which the saving thread did: 78.5 M of its 2,507 M at 100 MB (docs/performance.md,
      // hrow17).
      let checked = try? CheckedSample(
        checking: imported.sample, preparing: HealthSQLiteStorage.prepare)
      batch.starts.add(imported.sample)
      batch.candidates.append(
        Candidate(
          imported: imported, line: line, repaired: repaired, group: group, checked: checked))
    }

    /// The index of `revision` in `batch.revisions`, added there when it is new: the last
    /// `revisionsCompared` first, the last one first (an export's records come in runs of a
    /// few revisions taking turns, and equal revisions of one import share their storage,
    /// `HealthExportMapping.Cache`, so most comparisons stop there), then the dictionary.
    /// Made here, on the reader's thread, so that the saving thread groups a batch's samples
    /// by an index (`saveBatch`), where it compared and hashed revisions: 5.0 M instructions
    /// of its 364 M at 10 MB (docs/performance.md, hrow16).
    private mutating func group(of revision: SourceRevision) -> Int {
      let revisions = batch.revisions
      var index = revisions.endIndex
      while index > max(revisions.startIndex, revisions.endIndex - Self.revisionsCompared) {
        index -= 1
        if revisions[index] == revision { return index }
      }
      if revisions.count > Self.revisionsCompared, let known = revisionIndex[revision] {
        return known
      }
      let new = revisions.count
      revisionIndex[revision] = new
      batch.revisions.append(revision)
      return new
    }

    /// The revisions `group(of:)` compares before it asks its dictionary.
    static let revisionsCompared = 8

    /// What is held (a partial batch, the file's last), handed over.
    mutating func rest() -> Batch {
      defer {
        batch = Batch()
        revisionIndex.removeAll(keepingCapacity: true)
        batch.candidates.reserveCapacity(min(batchSize, HealthImportPlan.defaultBatchSize))
      }
      return batch
    }
  }

  /// What the reader's thread hands to the saving one.
  enum Handed: Sendable {
    case batch(Batch)
    /// A block of weights for the import that streams or checks them as read (`ImportStream`,
    /// `ReimportCheck`), in file order among the batches.
    case weights([ImportedWeight])
    /// The reader is done: the weights read, or why the file could not be read; and the state
    /// its spill ended in, when the weights were handed on as read.
    case end(Result<WeightImportResult, any Error>, ImportedWeightSpill.State?)
  }

  /// What the saving thread is done with once a batch is saved: the batch's samples as read
  /// and as saved, whose last references these are. Handed back to the reader's thread, which
  /// frees them (`BatchHandoff.giveBack`).
  struct Spent: Sendable {
    var candidates: [Candidate]
    var saved: [[HealthSample]]
  }

  /// A queue of at most one item between the reader's thread and the saving one: `put`
  /// waits while an item waits, `take` while none does. Batches the saving thread is done
  /// with go back the other way (`giveBack`), and the reader's next `put` frees them.
  final class BatchHandoff: @unchecked Sendable {
    // Unchecked: `waiting` and `spent` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var waiting: Handed?
    private var spent: [Spent] = []

    func put(_ item: Handed) {
      var done: [Spent] = []
      condition.lock()
      while waiting != nil { condition.wait() }
      waiting = item
      swap(&done, &spent)
      condition.broadcast()
      condition.unlock()
      // The saving thread's spent batches are freed here, on the reader's thread, outside
      // the lock: two samples a record (as read, as saved) and the arrays around them, each
      // a `free`, were 10–15 M instructions of the saving thread's 364 M at 10 MB
      // (docs/performance.md, hrow16).
      done.removeAll()
    }

    /// Keeps `spent` for the reader's thread to free at its next `put` (or with the handoff).
    func giveBack(_ spent: Spent) {
      condition.lock()
      defer { condition.unlock() }
      self.spent.append(spent)
    }

    func take() -> Handed {
      condition.lock()
      defer { condition.unlock() }
      while true {
        if let item = waiting {
          waiting = nil
          condition.broadcast()
          return item
        }
        condition.wait()
      }
    }
  }

  /// The start seconds of a batch's samples by type, gathered by the reader's thread as it
  /// reads them, for the "already present" reads of the saving thread (`presentSamples`),
  /// which gathered them itself: 4.0 M instructions of its 364 M at 10 MB (docs/performance.md,
  /// hrow16).
  struct Starts: Sendable {
    /// The types in the order first read, and the start seconds of each, in file order.
    private(set) var byType: [(type: SampleType, seconds: [Int64])] = []
    /// The index in `byType` of the last sample's type.
    private var last = 0

    /// Notes the start of `sample`.
    mutating func add(_ sample: HealthSample) {
      add(Instant.seconds(of: sample.startDate), of: sample.type)
    }

    // A dictionary by type hashed each sample's type (200 instructions a sample, callgrind):
    // the few types asked for are a list, the last one compared first.
    private mutating func add(_ seconds: Int64, of type: SampleType) {
      if byType.isEmpty || byType[last].type != type {
        if let index = byType.firstIndex(where: { $0.type == type }) {
          last = index
        } else {
          last = byType.count
          byType.append((type, []))
        }
      }
      byType[last].seconds.append(seconds)
    }

    /// Adds the starts of another batch's samples.
    mutating func add(_ other: Starts) {
      for (type, seconds) in other.byType {
        for second in seconds { add(second, of: type) }
      }
    }
  }
}
