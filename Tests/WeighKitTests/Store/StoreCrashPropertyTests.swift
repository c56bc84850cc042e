import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// Random sequences of commits (puts, removes, documents, compactions) against a directory
/// store and an in-memory model: they agree after reopening, and after a simulated kill at
/// every writing call the store makes (`WriteFaultInjector`), the reopened store holds the
/// model's state before or after the operation that was cut short — never anything else —
/// checks clean, and takes new commits.
@Suite struct StoreCrashPropertyTests {
  /// What the store should hold.
  struct Model: Equatable {
    var entries: [Int: Entry] = [:]
    var documents: [String: JSONValue] = [:]
    var nextID = 1
  }

  /// One step of a sequence.
  enum Operation {
    case commit([StoreChange], Model)
    case compact
  }

  /// Small enough that the sequences compact by themselves now and then.
  static let policy = CompactionPolicy(minimumJournalBytes: 700, maximumJournalBytes: 1400)

  /// Turns random codes into operations, each with the model after it.
  static func operations(_ codes: [Int]) -> [Operation] {
    var model = Model()
    var operations: [Operation] = []
    for code in codes {
      let existing = model.entries.keys.sorted()
      var changes: [StoreChange] = []
      switch code % 7 {
      case 0, 1:
        let entry = sampleEntry(model.nextID, kilograms: 50 + Double(code % 400) / 8)
        changes.append(.putEntry(entry))
        if code % 3 == 0 {
          let second = sampleEntry(model.nextID + 1)
          changes.append(.putEntry(second))
        }
      case 2 where !existing.isEmpty:
        changes.append(.putEntry(sampleEntry(existing[code % existing.count], kilograms: 99.5)))
      case 3 where !existing.isEmpty:
        changes.append(.removeEntry(id: existing[code % existing.count]))
      case 4:
        changes.append(.setDocument(name: "settings", value: ["n": .integer(code)]))
      case 5:
        changes.append(
          code % 2 == 0
            ? .removeDocument(name: "settings")
            : .setDocument(name: "app", value: ["anchor": .integer(code / 7)]))
      default:
        operations.append(.compact)
        continue
      }
      for change in changes {
        switch change {
        case .put(let row):
          model.entries[row.id] = row.value as? Entry
          model.nextID = max(model.nextID, row.id + 1)
        case .putRun(let run):
          for entry in run.values(EntryCodec.self) ?? [] {
            model.entries[entry.id] = entry
            model.nextID = max(model.nextID, entry.id + 1)
          }
        case .remove(_, let id): model.entries[id] = nil
        case .removeRun(_, let ids): for id in ids { model.entries[id] = nil }
        case .setDocument(let name, let value): model.documents[name] = value
        case .removeDocument(let name): model.documents[name] = nil
        }
      }
      operations.append(.commit(changes, model))
    }
    return operations
  }

  /// Runs the operations on a store in `directory` until one fails; returns the model
  /// before the failed operation and the one it would have made, or the final model twice.
  static func run(_ operations: [Operation], in directory: String) -> (before: Model, after: Model)
  {
    var model = Model()
    let store: Store
    do {
      store = try Store.open(.directory(directory), compaction: policy)
    } catch {
      return (model, model)
    }
    defer { store.close() }
    for operation in operations {
      switch operation {
      case .commit(let changes, let next):
        do { try store.commit(changes) } catch { return (model, next) }
        model = next
      case .compact:
        do { try store.compact() } catch { return (model, model) }
      }
    }
    return (model, model)
  }

  static func state(of directory: String) throws -> Model {
    let store = try Store.open(.directory(directory), compaction: policy)
    defer { store.close() }
    var model = Model()
    for entry in try store.entries() { model.entries[entry.id] = entry }
    model.documents = store.documents
    model.nextID = store.nextID()
    return model
  }

  @Test func storeAndModelAgreeAfterReopeningAndAfterACrashAtEveryWrite() async {
    await propertyCheck(count: 10, input: Gen.int(in: 0...10_000).array(of: 4...24)) { codes in
      failingOnThrow {
        let operations = Self.operations(codes)
        // A full run, counting the writing calls.
        let whole = TemporaryStoreDirectory()
        defer { whole.remove() }
        let counter = WriteFaultInjector()
        let finished = WriteFaultInjector.$current.withValue(counter) {
          Self.run(operations, in: whole.path)
        }
        #expect(finished.before == finished.after)
        #expect(try Self.state(of: whole.path) == finished.after)
        #expect(Store.check(.directory(whole.path)).isEmpty)

        for crashAt in 0..<counter.count {
          let directory = TemporaryStoreDirectory()
          defer { directory.remove() }
          let injector = WriteFaultInjector(remaining: crashAt)
          let cut = WriteFaultInjector.$current.withValue(injector) {
            Self.run(operations, in: directory.path)
          }
          #expect(injector.crashed, "call \(crashAt) of \(counter.count) was not reached")
          // A kill before the first file was written leaves no store at all (check says so).
          if directory.bytes("journal.jsonl") != nil {
            let findings = Store.check(.directory(directory.path))
            #expect(
              findings.filter { $0.severity == .error }.isEmpty,
              "crash at call \(crashAt): \(findings)")
          }
          let state: Model
          do { state = try Self.state(of: directory.path) } catch {
            Issue.record("crash at call \(crashAt) of \(counter.count): \(error)")
            continue
          }
          // The numbers of a commit cut short are not given again, even though it is lost.
          func same(_ model: Model) -> Bool {
            model.entries == state.entries && model.documents == state.documents
              && state.nextID >= model.nextID && state.nextID <= cut.after.nextID
          }
          #expect(
            same(cut.before) || same(cut.after),
            "crash at call \(crashAt) of \(counter.count): neither the old nor the new state")
          // The store takes new commits after its recovery, and numbers go on.
          let store = try Store.open(.directory(directory.path), compaction: Self.policy)
          let next = store.nextID()
          #expect(next >= cut.before.nextID)
          do {
            try store.commit([.putEntry(sampleEntry(next))])
            try store.compact()
            try store.commit([.putEntry(sampleEntry(next + 1))])
          } catch {
            Issue.record("after a crash at call \(crashAt): \(error)")
            continue
          }
          store.close()
          var expected = state
          expected.entries[next] = sampleEntry(next)
          expected.entries[next + 1] = sampleEntry(next + 1)
          expected.nextID = next + 2
          #expect(try Self.state(of: directory.path) == expected)
          let final = Store.check(.directory(directory.path))
          #expect(final.isEmpty, "crash at call \(crashAt): \(final)")
        }
      }
    }
  }

  /// A store of the format before checksums, as an earlier weigh left it.
  static func writeFormatOneStore(_ directory: TemporaryStoreDirectory) {
    directory.write(
      "weigh.json",
      Array(
        """
        {
          "format": "weigh-store",
          "version": 1,
          "sequence": 1,
          "tables": {"entries": {"file": "entries.json", "nextID": 3}},
          "documents": {"settings": {"unit": "st"}}
        }

        """.utf8))
    directory.write(
      "entries.json",
      Array(
        """
        {"format":"weigh-entries","version":1,"sequence":1,"rows":[
        {"id":1,"at":"2026-01-01T08:01:00Z","kg":60.125,"origin":"manual","source":"weigh","rev":1},
        {"id":2,"at":"2026-01-01T08:02:00Z","kg":60.25,"origin":"health","source":"Withings","rev":1,"healthUUID":"00000000-0000-4000-8000-000000000002"}
        ]}

        """.utf8))
    directory.write(
      "journal.jsonl",
      Array(
        """
        {"format":"weigh-journal","version":1}
        {"seq":2,"changes":[{"remove":"entries","id":1}]}

        """.utf8))
  }

  /// The first write to an older store rewrites it with checksums, then commits: a kill at
  /// any call of that leaves the old state or the new one, and the store opens and checks.
  @Test func aCrashAtEveryCallOfTheUpgradeLeavesTheOldOrTheNewState() throws {
    let counting = TemporaryStoreDirectory()
    defer { counting.remove() }
    Self.writeFormatOneStore(counting)
    let counter = WriteFaultInjector()
    try WriteFaultInjector.$current.withValue(counter) {
      let store = try Store.open(.directory(counting.path))
      try store.commit([.putEntry(sampleEntry(3))])
      store.close()
    }
    #expect(counter.count > 8, "the upgrade rewrites the table, weigh.json, journal and ack")
    let old = [sampleEntry(2)]
    for crashAt in 0..<counter.count {
      let directory = TemporaryStoreDirectory()
      defer { directory.remove() }
      Self.writeFormatOneStore(directory)
      let injector = WriteFaultInjector(remaining: crashAt)
      WriteFaultInjector.$current.withValue(injector) {
        guard let store = try? Store.open(.directory(directory.path)) else { return }
        try? store.commit([.putEntry(sampleEntry(3))])
        store.close()
      }
      #expect(injector.crashed)
      let findings = Store.check(.directory(directory.path))
      #expect(
        findings.filter { $0.severity == .error }.isEmpty, "crash at call \(crashAt): \(findings)")
      let store = try Store.open(.directory(directory.path))
      let entries = try store.entries()
      #expect(entries == old || entries == old + [sampleEntry(3)], "crash at call \(crashAt)")
      #expect(store.documents == ["settings": ["unit": "st"]])
      try store.commit([.putEntry(sampleEntry(4))])
      store.close()
      #expect(Store.check(.directory(directory.path)).isEmpty, "crash at call \(crashAt)")
    }
  }
}
