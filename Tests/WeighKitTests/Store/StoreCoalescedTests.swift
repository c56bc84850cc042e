import HealthSim
import Testing

@testable import WeighKit

/// `Store.coalesced`, which gives a command's journal record each document once (its last
/// change, and none when that leaves the document as it was) and every row change in order,
/// against the definition written plainly: for each change, is it a document's last one?
@Suite struct StoreCoalescedTests {
  /// A change described by what the test compares: rows by table and id, documents by
  /// name and value.
  enum Described: Equatable {
    case put(table: String, id: Int)
    case remove(table: String, id: Int)
    case set(String, JSONValue)
    case removeDocument(String)
  }

  static func describe(_ change: StoreChange) -> Described {
    switch change {
    case .put(let row): .put(table: row.table, id: row.id)
    case .putRun(let run): .put(table: run.table, id: run.largestID)
    case .remove(let table, let id): .remove(table: table, id: id)
    case .removeRun(let table, let ids): .remove(table: table, id: ids.runs.last?.upperBound ?? 0)
    case .setDocument(let name, let value): .set(name, value)
    case .removeDocument(let name): .removeDocument(name)
    }
  }

  /// The rule, one change at a time, quadratic: a document change is kept when no later
  /// change names its document and it changes the document from `before`.
  static func expected(_ changes: [StoreChange], before: [String: JSONValue]) -> [Described] {
    var kept: [Described] = []
    for (index, change) in changes.enumerated() {
      let name: String
      switch change {
      case .setDocument(let named, _), .removeDocument(let named): name = named
      case .put, .putRun, .remove, .removeRun:
        kept.append(describe(change))
        continue
      }
      let later = changes[(index + 1)...].contains { other in
        switch other {
        case .setDocument(let named, _), .removeDocument(let named): named == name
        case .put, .putRun, .remove, .removeRun: false
        }
      }
      if later { continue }
      switch change {
      case .setDocument(_, let value): if before[name] != value { kept.append(describe(change)) }
      default: if before[name] != nil { kept.append(describe(change)) }
      }
    }
    return kept
  }

  @Test func randomCommandsKeepEachDocumentsLastChangeAndEveryRowChange() {
    var generator = SeededGenerator(seed: 7)
    let names = ["app", "settings", "health", "health-simulations"]
    let values: [JSONValue] = [.bool(true), .bool(false), .integer(1), ["anchor": 3]]
    for _ in 0..<400 {
      var before: [String: JSONValue] = [:]
      for name in names where Bool.random(using: &generator) {
        before[name] = values.randomElement(using: &generator)!
      }
      var changes: [StoreChange] = []
      for id in stride(from: 1, through: Int.random(in: 0...12, using: &generator), by: 1) {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: changes.append(.putEntry(sampleEntry(id)))
        case 1: changes.append(.removeEntry(id: id))
        case 2:
          changes.append(
            .setDocument(
              name: names.randomElement(using: &generator)!,
              value: values.randomElement(using: &generator)!))
        default: changes.append(.removeDocument(name: names.randomElement(using: &generator)!))
        }
      }
      let coalesced = Store.coalesced(changes, before: before)
      #expect(coalesced.map(Self.describe) == Self.expected(changes, before: before))
    }
  }

  @Test func aDocumentSetAtEveryDeliveryIsWrittenOnceWithItsLastValue() {
    var changes: [StoreChange] = []
    for id in 1...3_650 {
      changes.append(.putEntry(sampleEntry(id)))
      changes.append(.setDocument(name: "app", value: ["anchor": .integer(id)]))
    }
    let coalesced = Store.coalesced(changes, before: ["app": ["anchor": 0]])
    #expect(coalesced.count == 3_651)
    #expect(coalesced.map(Self.describe).last == .set("app", ["anchor": .integer(3_650)]))
    // Unchanged in the end: not written at all.
    changes.append(.setDocument(name: "app", value: ["anchor": 0]))
    #expect(Store.coalesced(changes, before: ["app": ["anchor": 0]]).count == 3_650)
  }
}
