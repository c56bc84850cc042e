import Testing

@testable import WeighKit

/// An import's undo keeps the numbers it removes as runs of consecutive numbers; what it
/// commits must be the removals in the order given, then the other changes.
@Suite struct UndoStepTests {
  /// The ids of the removals and the names of the documents `changes` set, in order.
  static func described(_ changes: [StoreChange]) -> [String] {
    StoreChange.expandingRemovals(changes).map { change in
      switch change {
      case .remove(let table, let id): "\(table) -\(id)"
      case .removeRun(let table, let ids): "\(table) -\(ids)"
      case .setDocument(let name, _): "set \(name)"
      case .put(let row): "\(row.table) +\(row.id)"
      case .putRun(let run): "\(run.table) +\(run.count) rows"
      case .removeDocument(let name): "unset \(name)"
      }
    }
  }

  @Test func removalsComeBackInTheirOrderThenTheOtherChanges() {
    let step = UndoStep(
      description: "import", removingEntries: [5, 6, 7, 10, 3, 4, 11],
      then: [.setDocument(name: "settings", value: ["unit": "kg"])])
    #expect(
      Self.described(step.changes) == [
        "entries -5", "entries -6", "entries -7", "entries -10", "entries -3", "entries -4",
        "entries -11", "set settings",
      ])
  }

  @Test func aMillionNumbersInARowAreOneRun() {
    let step = UndoStep(description: "import", removingEntries: Array(1...1_000_000), then: [])
    let changes = step.changes
    #expect(changes.count == 1)
    guard case .removeRun("entries", let ids) = changes.first else {
      Issue.record("expected one run of removals, got \(changes.count) changes")
      return
    }
    #expect(ids.ranges == [1...1_000_000])
  }

  /// The runs of a weigh CSV with gaps (every seventh number left out) are one change.
  @Test func manyRunsAreOneChange() {
    let ids = (1...70_000).filter { $0 % 7 != 0 }
    let step = UndoStep(description: "import", removingEntries: ids, then: [])
    let changes = step.changes
    #expect(changes.count == 1)
    guard case .removeRun("entries", let runs) = changes.first else {
      Issue.record("expected one run of removals, got \(changes.count) changes")
      return
    }
    #expect(runs.runs.count == 10_000)
    #expect(Array(runs) == ids)
  }

  @Test func aStepOfChangesGivesThemBack() {
    let step = UndoStep(description: "log #3", changes: [.removeEntry(id: 3)])
    #expect(Self.described(step.changes) == ["entries -3"])
  }
}
