import Foundation
import Testing

@testable import WeighKit

/// A commit's document change that leaves the document as it is writes nothing (wstore11's
/// path for a commit with one document change, beside the general one for several).
@Suite struct StoreNoOpDocumentTests {
  private static func journal(_ directory: TemporaryStoreDirectory) -> String {
    (try? String(contentsOfFile: directory.path + "/journal.jsonl", encoding: .utf8)) ?? ""
  }

  @Test func oneDocumentChangeThatChangesNothingIsDropped() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.setDocument(name: "app", value: ["anchor": 7])])
    let before = directory.snapshot()
    // The same value, alone: nothing is written.
    try store.commit([.setDocument(name: "app", value: ["anchor": 7])])
    // A document that is not there, removed: nothing is written.
    try store.commit([.removeDocument(name: "goal")])
    #expect(directory.snapshot() == before)
    // With a row: the row is written, the document change is not.
    try store.commit([.putEntry(sampleEntry(1)), .setDocument(name: "app", value: ["anchor": 7])])
    let lines = Self.journal(directory).split(separator: "\n")
    #expect(lines.last?.contains("\"put\"") == true)
    #expect(lines.last?.contains("\"set\"") == false)
    // A different value, and a removal of one that is there, are written.
    try store.commit([.putEntry(sampleEntry(2)), .setDocument(name: "app", value: ["anchor": 8])])
    #expect(Self.journal(directory).split(separator: "\n").last?.contains("\"set\"") == true)
    try store.commit([.removeDocument(name: "app")])
    #expect(Self.journal(directory).split(separator: "\n").last?.contains("\"unset\"") == true)
    #expect(store.documents["app"] == nil)
    store.close()
    let reopened = try Store.open(.directory(directory.path))
    #expect(try reopened.entries().map(\.id) == [1, 2])
    #expect(reopened.documents["app"] == nil)
  }

  @Test func severalDocumentChangesAreComparedWithTheLatest() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path))
    try store.commit([.setDocument(name: "app", value: ["anchor": 7])])
    let before = directory.snapshot()
    // Set to another value and back: both kept (the second is not a no-op after the first).
    try store.commit([
      .setDocument(name: "app", value: ["anchor": 8]),
      .setDocument(name: "app", value: ["anchor": 7]),
    ])
    #expect(directory.snapshot() != before)
    #expect(store.documents["app"] == ["anchor": 7])
  }
}
