/// What `undo` does to revert one change.
struct UndoStep {
  /// `log #3`, `edit #2`: what is reverted, for the message.
  var description: String
  /// Entries the step removes, as runs a step apart: an import's undo is kept as a run or a
  /// few, not as a change per entry it added.
  private var removedEntries = IDRuns()
  /// The other changes, made after the removals.
  private var others: [StoreChange]

  /// What undoing the step commits: the removals as one change of runs
  /// (`StoreChange.removeRun`), which the journal writes as one removal per entry. Expanded
  /// into a change per entry, the undo of a 1,000,000-entry import held them several times
  /// over (344 MB); a change per run held 190 bytes a run (27 MB for the 142,857 runs of an
  /// 857,143-row weigh CSV with gaps, undo20).
  var changes: [StoreChange] {
    guard !removedEntries.runs.isEmpty else { return others }
    return [.removeRun(table: EntryCodec.tableName, ids: removedEntries)] + others
  }

  /// A step that commits `changes`.
  init(description: String, changes: [StoreChange]) {
    self.description = description
    others = changes
  }

  /// A step that removes the entries numbered `runs` (a streamed import's, held as they are:
  /// every other number is one run), then commits `changes`.
  init(description: String, removingRuns runs: IDRuns, then changes: [StoreChange]) {
    self.description = description
    others = changes
    removedEntries = runs
  }

  /// A step that removes the entries numbered `ids` (in any order), then commits `changes`.
  init(
    description: String, removingEntries ids: some Sequence<Int>, then changes: [StoreChange]
  ) {
    self.description = description
    others = changes
    for id in ids { removedEntries.append(id) }
  }
}

/// The changes this session can undo, newest last (the document and its undo).
struct UndoHistory {
  private(set) var steps: [UndoStep] = []
  /// Whether the history was dropped because another process changed the store.
  private(set) var droppedByOtherProcess = false

  /// The step `undo` reverts next.
  var last: UndoStep? { steps.last }

  mutating func record(_ step: UndoStep) { steps.append(step) }

  mutating func removeLast() { steps.removeLast() }

  /// Forgets every step: undoing now would write old values over another process's changes.
  mutating func dropForOtherProcess() {
    guard !steps.isEmpty else { return }
    steps = []
    droppedByOtherProcess = true
  }
}
