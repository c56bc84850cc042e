/// What `undo` does to revert one change.
struct UndoStep {
  /// `log #3`, `edit #2`: what is reverted, for the message.
  var description: String
  var changes: [StoreChange]
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
