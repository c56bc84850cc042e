import Testing

@testable import WeighKit

/// A second table, as the simulated Health store will add: adding it is writing a codec.
private struct Tombstone: Equatable, Sendable {
  var id: Int
  var uuid: String
}

private enum TombstoneCodec: StoreTableCodec {
  static let tableName = "tombstones"
  static let formatName = "weigh-tombstones"
  static let formatVersion = 1

  static func id(of row: Tombstone) -> Int { row.id }

  static func encode(_ row: Tombstone, into writer: inout JSONWriter) {
    writer.raw("{\"id\":")
    writer.write(row.id)
    writer.raw(",\"uuid\":")
    writer.write(row.uuid)
    writer.raw("}")
  }

  static func decode(from reader: inout JSONReader) throws(JSONSyntaxError) -> Tombstone {
    try reader.beginObject()
    var row = Tombstone(id: 0, uuid: "")
    while let key = try reader.nextKey() {
      if key.equals("id") {
        row.id = try reader.readInt()
      } else if key.equals("uuid") {
        row.uuid = try reader.readString()
      } else {
        try reader.skipValue()
      }
    }
    return row
  }
}

@Suite struct StoreExtraTableTests {
  @Test func anExtraTableIsJournaledCompactedAndReadBack() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), tables: [TombstoneCodec.self])
    try store.commit([
      .put(StoreRow(TombstoneCodec.self, Tombstone(id: 5, uuid: "E"))),
      .put(StoreRow(TombstoneCodec.self, Tombstone(id: 2, uuid: "B"))),
      .putEntry(sampleEntry(1)),
    ])
    try store.compact()
    try store.commit([.remove(table: "tombstones", id: 5)])
    store.close()
    #expect(directory.text("tombstones.json")!.contains("\"row\":{\"id\":2,\"uuid\":\"B\"}},\n"))

    let reopened = try Store.open(.directory(directory.path), tables: [TombstoneCodec.self])
    #expect(try reopened.rows(TombstoneCodec.self) == [Tombstone(id: 2, uuid: "B")])
    #expect(reopened.nextID(in: "tombstones") == 6)
    #expect(try reopened.entries().map(\.id) == [1])
    #expect(reopened.check().isEmpty)
  }

  @Test func aJournalWithAnUnknownTableIsNotOpenedByAWeighWithoutItsCodec() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let store = try Store.open(.directory(directory.path), tables: [TombstoneCodec.self])
    try store.commit([.put(StoreRow(TombstoneCodec.self, Tombstone(id: 1, uuid: "A")))])
    store.close()
    let error = #expect(throws: StoreError.self) { try Store.open(.directory(directory.path)) }
    #expect(error?.kind == .corrupt)
    #expect(error?.location?.line == 2)
    #expect(
      error?.message.hasPrefix("unknown table \"tombstones\"; this weigh cannot read it") == true)
    #expect(throws: StoreError.self) { try Store.open(.memory).rows(TombstoneCodec.self) }
  }
}
