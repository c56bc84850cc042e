/// The contents of `weigh.json`: the store's format, the sequence it is complete up to, what
/// it knows of each table, and the small named documents.
///
///     {
///       "format": "weigh-store",
///       "version": 2,
///       "sequence": 42,
///       "tables": {"entries": {"file": "entries.json", "nextID": 1001}},
///       "documents": {
///         "settings": {…}
///       },
///       "crc": "3f2a9c01"
///     }
///
/// `crc` (version 2) is the CRC-32 of every byte before the `,` that precedes it, and must be
/// the last member. Version 1 (stores made before checksums) has none and is still read.
struct StoreManifest: Equatable {
  static let fileName = "weigh.json"
  static let formatName = "weigh-store"
  static let formatVersion = 2

  /// The version the file was read with (new manifests are written as `formatVersion`).
  var version = formatVersion
  /// The last journal sequence folded into this file.
  var sequence = 0
  /// Per table: `file` once the table has a snapshot file, `nextID` (the next unused id).
  var tables: [String: JSONValue] = [:]
  /// The named documents.
  var documents: [String: JSONValue] = [:]

  static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> StoreManifest {
    do {
      return try JSONReader.withReader(over: bytes) { (reader) throws(JSONSyntaxError) in
        var manifest = StoreManifest()
        var sawFormat = false
        var sawVersion = false
        var sawSequence = false
        var sawChecksum = false
        try reader.beginObject()
        while let key = try reader.nextKey() {
          if key.equals("format") {
            let name = try reader.readRawString()
            guard try reader.decode(name) == formatName else {
              throw reader.error("expected format \"\(formatName)\"", at: name.offset)
            }
            sawFormat = true
          } else if key.equals("version") {
            manifest.version = try reader.readFormatVersion(supported: formatVersion)
            sawVersion = true
          } else if key.equals("crc") {
            let checksum = try reader.readChecksumMember(after: key)
            guard try reader.nextKey() == nil else {
              throw reader.error("\"crc\" must be the last member of weigh.json")
            }
            try reader.expectEnd()
            guard checksum.matches else {
              throw reader.error(
                "weigh.json does not match its checksum (changed outside weigh, or damaged); "
                  + "restore it from a backup or run weigh check --repair",
                at: checksum.offset)
            }
            sawChecksum = true
            break
          } else if key.equals("sequence") {
            let position = reader.offset
            manifest.sequence = try reader.readInt()
            guard manifest.sequence >= 0 else {
              throw reader.error("sequence must not be negative", at: position)
            }
            sawSequence = true
          } else if key.equals("tables") {
            let position = reader.offset
            guard case .object(let members) = try reader.readValue() else {
              throw reader.error("expected an object", at: position)
            }
            manifest.tables = members
          } else if key.equals("documents") {
            // Checked as the session reads them, so that loading and `check` agree.
            manifest.documents = try StoreDocuments.readAll(from: &reader)
          } else {
            try reader.skipValue()
          }
        }
        try reader.expectEnd()
        guard sawFormat, sawVersion, sawSequence else {
          throw reader.error(
            "the store header lacks \"format\", \"version\" or \"sequence\"", at: 0)
        }
        guard sawChecksum || manifest.version < 2 else {
          throw reader.error(
            "weigh.json has no \"crc\" (its checksum); restore it from a "
              + "backup or run weigh check --repair", at: reader.offset)
        }
        return manifest
      }
    } catch {
      throw StoreError(file: path, syntax: error, supported: formatVersion)
    }
  }

  func encoded() -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\n  \"format\": ")
    writer.write(Self.formatName)
    writer.raw(",\n  \"version\": ")
    writer.write(Self.formatVersion)
    writer.raw(",\n  \"sequence\": ")
    writer.write(sequence)
    writer.raw(",\n  \"tables\": ")
    writer.write(.object(tables), indent: 2)
    writer.raw(",\n  \"documents\": ")
    writer.write(.object(documents), indent: 2)
    let crc = StoreChecksum.of(writer.bytes[...])
    writer.raw(",\n  ")
    StoreChecksum.writeMember(crc, into: &writer)
    writer.raw("\n}\n")
    return writer.bytes
  }
}
