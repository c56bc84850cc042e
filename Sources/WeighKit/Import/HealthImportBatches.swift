import Foundation
import HealthSim

extension HealthImportPlan {
  /// Samples read and records rejected while reading, handed from the reader to the saving
  /// in file order.
  struct Batch: Sendable {
    var candidates: [Candidate] = []
    /// Records that could not be taken (in file order).
    var rejections: [ImportRejection] = []

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
          batch.candidates.append(
            Candidate(
              imported: try HealthExportMapping.sample(
                from: record, type: type, line: line, cache: cache),
              line: line, repaired: record.repairedAttributes))
        case .workout(let workout):
          batch.candidates.append(
            Candidate(
              imported: try HealthExportMapping.sample(from: workout, line: line, cache: cache),
              line: line, repaired: workout.repairedAttributes))
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

    /// What is held (a partial batch, the file's last), handed over.
    mutating func rest() -> Batch {
      defer {
        batch = Batch()
        batch.candidates.reserveCapacity(min(batchSize, HealthImportPlan.defaultBatchSize))
      }
      return batch
    }
  }

  /// What the reader's thread hands to the saving one.
  enum Handed: Sendable {
    case batch(Batch)
    /// The reader is done: the weights read, or why the file could not be read.
    case end(Result<WeightImportResult, any Error>)
  }

  /// A queue of at most one item between the reader's thread and the saving one: `put`
  /// waits while an item waits, `take` while none does.
  final class BatchHandoff: @unchecked Sendable {
    // Unchecked: `waiting` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var waiting: Handed?

    func put(_ item: Handed) {
      condition.lock()
      defer { condition.unlock() }
      while waiting != nil { condition.wait() }
      waiting = item
      condition.broadcast()
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
}
