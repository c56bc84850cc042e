import Testing

@testable import WeighKit

/// A streamed journal record's checksum takes each row's own checksum (computed for the row's
/// table line) and combines it in (`CRC32Combination`) instead of running over the row's
/// bytes again. The combination must give the direct CRC-32 of the two pieces one after the
/// other, and a record so checksummed must carry the checksum of its bytes.
@Suite struct CRC32CombinationTests {
  /// A small generator, the same on every run.
  struct Bytes {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func bytes(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
  }

  private static func crc(_ bytes: [UInt8]) -> UInt32 {
    var crc = ZipCRC32()
    bytes.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  @Test func twoPiecesCombinedAreTheChecksumOfBothInTurn() {
    var random = Bytes(state: 20_261_127)
    var lengths = Array(0...300) + [511, 512, 513, 1023, 1024, 4095, 4096, 65_537, 1 << 20]
    for _ in 0..<300 { lengths.append(random.below(3000)) }
    for secondLength in lengths {
      let first = random.bytes(random.below(200))
      let second = random.bytes(secondLength)
      let combined = CRC32Combination.combine(
        Self.crc(first), Self.crc(second), secondLength: second.count)
      #expect(combined == Self.crc(first + second), "\(first.count) + \(second.count) bytes")
    }
  }

  @Test func aChecksumGoesOnFromTheValueItContinues() {
    var random = Bytes(state: 7)
    for _ in 0..<200 {
      let first = random.bytes(random.below(100))
      let second = random.bytes(random.below(100))
      var crc = ZipCRC32(continuing: Self.crc(first))
      second.withUnsafeBytes { crc.update($0) }
      #expect(crc.value == Self.crc(first + second))
    }
  }

  /// A record streamed in pieces of `pieceBytes`, some rows' checksums combined in (those
  /// the callback answers for, as the streamed table file does while it is open) and the
  /// others run over: its last line's checksum is the CRC-32 of the bytes before it.
  @Test(arguments: [1, 64, 700, 4096, 1 << 20])
  func aStreamedRecordCarriesTheChecksumOfItsBytes(pieceBytes: Int) throws {
    for (seed, answering) in [(1, 0), (2, 1), (3, 2), (4, 3)] {
      var random = Bytes(state: UInt64(seed))
      let entries = StoreLargeImportTests.imported(1...400).map { entry in
        var entry = entry
        if random.below(3) == 0 { entry.note = String(repeating: "n", count: random.below(300)) }
        return entry
      }
      let changes: [StoreChange] =
        StoreChange.putEntries(entries) + [.remove(table: "entries", id: 5)]
      var writer = JSONWriter()
      var written: [UInt8] = []
      var stream = RecordStream()
      stream.begin(sequence: 9, into: &writer)
      var shapes = ReadBackShapes()
      var index = 0
      try stream.encodeRows(
        changes[...], into: &writer, pieceBytes: pieceBytes, shapes: &shapes,
        row: { _, _, bytes in
          index += 1
          // 0: none answered; 1: all; 2: every other; 3: all but the last hundred (a file
          // abandoned on the way).
          switch answering {
          case 0: return nil
          case 1: return StoreChecksum.of(bytes)
          case 2: return index % 2 == 0 ? StoreChecksum.of(bytes) : nil
          default: return index <= 300 ? StoreChecksum.of(bytes) : nil
          }
        }
      ) { (bytes) throws(StoreError) in written += bytes }
      try StoreJournal.encode(
        sequence: 9, changes: changes, rows: EncodedRows(), into: &writer,
        pieceBytes: pieceBytes, resuming: stream
      ) { (bytes) throws(StoreError) in written += bytes }
      #expect(written.last == 0x0A)
      let problem = written.withUnsafeBufferPointer {
        StoreChecksum.verifyLine($0, 0..<($0.count - 1))
      }
      #expect(problem == nil, "seed \(seed): \(problem ?? "")")
      var direct = JSONWriter()
      try StoreJournal.encode(
        sequence: 9, changes: changes, rows: Self.rows(of: changes), into: &direct)
      #expect(written == direct.bytes, "seed \(seed): not the record written in one piece")
    }
  }

  /// The rows of `changes`' puts, encoded as a commit encodes them.
  private static func rows(of changes: [StoreChange]) -> EncodedRows {
    var rows = EncodedRows()
    for change in changes {
      guard case .putRun(let run) = change else { continue }
      for index in 0..<run.count { _ = rows.append(run.row(at: index)) }
    }
    return rows
  }
}
