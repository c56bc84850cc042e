// checked-file: every offset read from the file is checked against the file's size before it
// is used, and all arithmetic is on UInt64 values below that size, so none can trap.
import Foundation

/// Where the compressed bytes of one zip entry lie in the file, read from the zip's own
/// central directory and local header.
///
/// ZIPFoundation 0.9.20 inflates with a loop that waits for the deflate stream's end and,
/// once the file is read to its end, asks for more bytes for ever; it does not make an
/// entry's offset public. Knowing where the entry's bytes start and how many there are lets
/// `AppleHealthExportReader` hand the inflater those bytes only, and stop with an error when
/// they run out before the stream ends.
struct ZipEntryData {
  /// The offset of the first compressed byte.
  var offset: UInt64
  /// How many compressed bytes there are.
  var compressedSize: UInt64

  /// Why the entry could not be found; always means a damaged zip.
  struct Damaged: Error {}

  /// Finds the entry named `path` in the zip open in `handle`.
  static func locate(_ path: String, in handle: FileHandle) throws -> ZipEntryData {
    let fileSize = try handle.seekToEnd()
    // The end-of-central-directory record is in the last 22 + 65,535 (comment) bytes.
    let tailSize = min(fileSize, 22 + 0xFFFF)
    let tail = try read(handle, at: fileSize - tailSize, count: Int(tailSize), fileSize)
    guard tail.count >= 22,
      let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: {
        le32(tail, $0) == 0x0605_4B50
      })
    else { throw Damaged() }
    var entryCount = UInt64(le16(tail, end + 10))
    var directoryOffset = UInt64(le32(tail, end + 16))
    if directoryOffset == 0xFFFF_FFFF || entryCount == 0xFFFF {
      // Zip64: a locator just before the record points at the zip64 record.
      guard end >= 20, le32(tail, end - 20) == 0x0706_4B50 else { throw Damaged() }
      let record = try read(handle, at: le64(tail, end - 12), count: 56, fileSize)
      guard record.count == 56, le32(record, 0) == 0x0606_4B50 else { throw Damaged() }
      entryCount = le64(record, 32)
      directoryOffset = le64(record, 48)
    }
    var position = directoryOffset
    let wanted = Array(path.utf8)
    for _ in 0..<entryCount {
      let header = try read(handle, at: position, count: 46, fileSize)
      guard header.count == 46, le32(header, 0) == 0x0201_4B50 else { throw Damaged() }
      let nameLength = Int(le16(header, 28))
      let extraLength = Int(le16(header, 30))
      let commentLength = UInt64(le16(header, 32))
      let rest = try read(handle, at: position + 46, count: nameLength + extraLength, fileSize)
      guard rest.count == nameLength + extraLength else { throw Damaged() }
      position += 46 + UInt64(nameLength + extraLength) + commentLength
      guard Array(rest.prefix(nameLength)) == wanted else { continue }
      var compressedSize = UInt64(le32(header, 20))
      var localOffset = UInt64(le32(header, 42))
      // Zip64 extra field (id 1): the 64-bit values of the fields saturated above, in order.
      let extra = Array(rest.dropFirst(nameLength))
      var field = 0
      while field + 4 <= extra.count {
        let id = le16(extra, field)
        let size = Int(le16(extra, field + 2))
        if id == 1 {
          var value = field + 4
          let end = min(field + 4 + size, extra.count)
          func next() -> UInt64? {
            guard value + 8 <= end else { return nil }
            defer { value += 8 }
            return le64(extra, value)
          }
          if le32(header, 24) == 0xFFFF_FFFF { _ = next() }
          if compressedSize == 0xFFFF_FFFF { compressedSize = next() ?? compressedSize }
          if localOffset == 0xFFFF_FFFF { localOffset = next() ?? localOffset }
        }
        field += 4 + size
      }
      let local = try read(handle, at: localOffset, count: 30, fileSize)
      guard local.count == 30, le32(local, 0) == 0x0403_4B50 else { throw Damaged() }
      let offset = localOffset + 30 + UInt64(le16(local, 26)) + UInt64(le16(local, 28))
      guard offset <= fileSize, compressedSize <= fileSize - offset else { throw Damaged() }
      return ZipEntryData(offset: offset, compressedSize: compressedSize)
    }
    throw Damaged()
  }

  private static func read(_ handle: FileHandle, at offset: UInt64, count: Int, _ fileSize: UInt64)
    throws -> [UInt8]
  {
    guard offset <= fileSize else { throw Damaged() }
    try handle.seek(toOffset: offset)
    return [UInt8](try handle.read(upToCount: count) ?? Data())
  }

  private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16
  }

  private static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    UInt64(le32(bytes, at)) | UInt64(le32(bytes, at + 4)) << 32
  }
}
