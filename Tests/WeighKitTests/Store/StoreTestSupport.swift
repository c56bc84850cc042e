import Foundation
import Testing

@testable import WeighKit

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryStoreDirectory {
  let path: String

  init() {
    var template = Array((NSTemporaryDirectory() + "weigh-store-test-XXXXXX").utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: created!)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func bytes(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: file(name)).map { Array($0) }
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: file(name), contents: Data(bytes))
  }

  func text(_ name: String) -> String? {
    bytes(name).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Every file's bytes by name.
  func snapshot() -> [String: [UInt8]] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return Dictionary(uniqueKeysWithValues: names.map { ($0, bytes($0) ?? []) })
  }

  func copy(to other: TemporaryStoreDirectory) {
    for (name, bytes) in snapshot() { other.write(name, bytes) }
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// An entry with the given id, at a minute per id after 2026-01-01T08:00:00Z (weights stay
/// in the range the store loads, whatever the id).
func sampleEntry(_ id: Int, kilograms: Double? = nil) -> Entry {
  Entry(
    id: id, instant: 1_767_254_400 + Int64(id) * 60,
    kilograms: kilograms ?? 60 + Double(id % 1000) / 8,
    origin: id % 2 == 0 ? .health : .manual, source: id % 2 == 0 ? "Withings" : "weigh",
    healthUUID: id % 2 == 0 ? sampleUUID(id) : nil)
}

/// A UUID string that ends in `id` (`00000000-0000-4000-8000-000000000012`).
func sampleUUID(_ id: Int) -> String {
  let digits = String(id)
  return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count))
    + digits
}

/// After a crash at writing call `crashAt`: `store` (reopened, holding `found`) takes a new
/// entry (and compacts when `compacting`), and reopened again holds `found` and it, with
/// nothing for `weigh check` to say. Closes `store`.
func expectTakesANewEntry(
  _ store: Store, holding found: [Entry], in directory: TemporaryStoreDirectory, crashAt: Int,
  compacting: Bool = false
) throws {
  let next = store.nextID()
  try store.commit([.putEntry(sampleEntry(next))])
  if compacting { try store.compact() }
  store.close()
  let again = try Store.open(.directory(directory.path))
  #expect(try again.entries() == found + [sampleEntry(next)])
  again.close()
  #expect(Store.check(.directory(directory.path)).isEmpty, "crash at call \(crashAt)")
}

/// Runs `run` in a new directory once for each of the `calls` writing calls it makes, killed
/// at that call (`WriteFaultInjector`), and expects each kill to be reached. Each directory
/// left with a journal must check without an error (and, unless `warningsAllowed`, with
/// notes only) before `reopen` gets it with the call's number; directories are removed after.
func forEachKill(
  ofCalls calls: Int, warningsAllowed: Bool = false, _ run: (TemporaryStoreDirectory) -> Void,
  reopen: (TemporaryStoreDirectory, Int) throws -> Void
) rethrows {
  for crashAt in 0..<calls {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let injector = WriteFaultInjector(remaining: crashAt)
    WriteFaultInjector.$current.withValue(injector) { run(directory) }
    #expect(injector.crashed, "call \(crashAt) of \(calls) was not reached")
    guard directory.bytes("journal.jsonl") != nil else { continue }
    let findings = Store.check(.directory(directory.path))
    let worst: Severity = warningsAllowed ? .warning : .note
    #expect(
      findings.allSatisfy { $0.severity == .note || $0.severity == worst },
      "crash at call \(crashAt): \(findings)")
    try reopen(directory, crashAt)
  }
}
