/// `journal.ack`: what the store has acknowledged, kept outside the journal so that a
/// journal cut short, emptied or stripped of its last records is told from an append torn
/// by a crash.
///
///     {"format":"weigh-ack","version":1,"base":40,"seq":43,"length":912,"next":{"entries":8},"crc":"…"}
///
/// `base` is the sequence the journal starts after (its header's), `seq` the last
/// acknowledged transaction and `length` the journal's size in bytes up to the end of its
/// line, `next` each table's next unused id. The store overwrites it in place (`pwrite`, one
/// call, the line padded with spaces to a fixed size) after each commit's `fdatasync` has
/// returned, without syncing it: a kill -9 cannot undo the write, since it is in the page
/// cache; a power loss can leave an older one (never a newer one: the journal bytes it
/// describes were synced first). Compaction rewrites it and syncs it.
struct StoreAck: Equatable {
  static let fileName = "journal.ack"
  static let formatName = "weigh-ack"
  static let formatVersion = 1
  /// The file's size: the line padded with spaces, so that every write covers the last.
  static let size = 512
  private static let spaces = [UInt8](repeating: 0x20, count: size)

  /// The sequence the journal this describes starts after.
  var base: Int
  /// The last acknowledged transaction (`base` when there is none yet).
  var sequence: Int
  /// The journal's length in bytes after that transaction's line.
  var length: Int
  /// Each table's next unused id when it was written: numbers are never given again, even
  /// by a repair that had to drop acknowledged transactions.
  var nextIDs: [String: Int] = [:]

  /// The file's bytes: one checksummed line padded with spaces.
  func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    encode(into: &bytes)
    return bytes
  }

  /// Replaces `bytes` with the file's bytes, keeping its capacity (the store writes the ack
  /// after every commit, from one buffer).
  func encode(into bytes: inout [UInt8]) {
    var writer = JSONWriter()
    swap(&writer.bytes, &bytes)
    writer.truncate(to: 0)
    writer.bytes.reserveCapacity(Self.size)
    writer.raw("{\"format\":\"weigh-ack\",\"version\":1,\"base\":")
    writer.write(base)
    writer.raw(",\"seq\":")
    writer.write(sequence)
    writer.raw(",\"length\":")
    writer.write(length)
    writer.raw(",\"next\":{")
    if nextIDs.count == 1, let (table, next) = nextIDs.first {
      // The usual case (only the log has rows): nothing to sort.
      writer.write(table)
      writer.raw(byte: 0x3A)
      writer.write(next)
    } else {
      for (index, (table, next)) in nextIDs.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { writer.raw(byte: 0x2C) }
        writer.write(table)
        writer.raw(byte: 0x3A)
        writer.write(next)
      }
    }
    writer.raw(byte: 0x7D)
    let crc = StoreChecksum.of(writer.bytes[...])
    writer.raw(byte: 0x2C)
    StoreChecksum.writeMember(crc, into: &writer)
    writer.raw(byte: 0x7D)
    if writer.bytes.count < Self.size - 1 {
      writer.bytes.append(contentsOf: Self.spaces[..<(Self.size - 1 - writer.bytes.count)])
    }
    writer.raw(byte: 0x0A)
    swap(&writer.bytes, &bytes)
  }

  /// Reads the file's bytes.
  ///
  /// - Throws: `corrupt` (naming the file) when they are not an ack line with a matching
  ///   checksum, `newerFormat` for a newer version.
  static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StoreAck {
    var end = bytes.count
    while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
    let problem = bytes.withUnsafeBufferPointer { StoreChecksum.verifyLine($0, 0..<end) }
    if let problem {
      throw StoreError(
        .corrupt, file: path, line: 1, column: 1,
        message:
          "\(problem.replacingOccurrences(of: "the record", with: "the file")); nothing was "
          + "changed, run weigh check --repair")
    }
    do {
      return try JSONReader.withReader(over: Array(bytes[0..<end])) {
        (reader) throws(JSONSyntaxError) in
        var base: Int?
        var sequence: Int?
        var length: Int?
        var nextIDs: [String: Int] = [:]
        try reader.beginObject()
        while let key = try reader.nextKey() {
          let position = reader.offset
          if key.equals("format") {
            guard try reader.readString() == formatName else {
              throw reader.error("expected format \"\(formatName)\"", at: position)
            }
          } else if key.equals("version") {
            _ = try reader.readFormatVersion(supported: formatVersion)
          } else if key.equals("base") {
            base = try reader.readInt()
          } else if key.equals("seq") {
            sequence = try reader.readInt()
          } else if key.equals("length") {
            length = try reader.readInt()
          } else if key.equals("next") {
            try reader.beginObject()
            while let table = try reader.nextKey() {
              nextIDs[try reader.decode(table)] = try reader.readInt()
            }
          } else {
            try reader.skipValue()
          }
        }
        try reader.expectEnd()
        guard let base, let sequence, let length, base >= 0, sequence >= base, length > 0 else {
          throw reader.error("the file lacks \"base\", \"seq\" or \"length\"", at: 0)
        }
        return StoreAck(base: base, sequence: sequence, length: length, nextIDs: nextIDs)
      }
    } catch {
      throw StoreError(file: path, syntax: error, supported: formatVersion)
    }
  }
}
