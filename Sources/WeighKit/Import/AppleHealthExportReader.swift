import CWeighZlib
import Foundation
import ZIPFoundation

/// Reads Apple Health `export.zip` or `export.xml` files in chunks through
/// `AppleHealthExportParser`.
public enum AppleHealthExportReader {
  /// Bytes read or inflated at a time.
  public static let chunkSize = 1 << 20

  /// Where Apple puts the records inside `export.zip`.
  public static let zipEntryPath = "apple_health_export/export.xml"

  /// Reads `url`, a zip or a plain XML file (told apart by the first bytes), handing each
  /// item to `handler` (records' devices as `HealthDevice`s with `resolvingDevices`, see
  /// `AppleHealthExportParser.init`); returns how many items had attribute names with spaces, read as one
  /// name each (`AppleHealthExportParser.repairedElements`).
  ///
  /// - Throws: `ImportError` when the file cannot be read or is not well-formed; the items
  ///   already handed over must then be discarded.
  /// - Complexity: O(file size) time; memory independent of the file size.
  @discardableResult
  public static func read(
    contentsOf url: URL, recordTypes: Set<String>? = nil, resolvingDevices: Bool = false,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws -> Int {
    if try isZip(url) {
      return try readZip(
        at: url, recordTypes: recordTypes, resolvingDevices: resolvingDevices, handler: handler)
    } else {
      return try readXML(
        at: url, recordTypes: recordTypes, resolvingDevices: resolvingDevices, handler: handler)
    }
  }

  /// Whether the file starts with a zip local header (`PK\u{3}\u{4}`).
  public static func isZip(_ url: URL) throws -> Bool {
    let handle = try open(url)
    defer { try? handle.close() }
    let head = try handle.read(upToCount: 4) ?? Data()
    return head.elementsEqual([0x50, 0x4B, 0x03, 0x04])
  }

  /// Reads a plain `export.xml`; returns the count of repaired items.
  @discardableResult
  public static func readXML(
    at url: URL, recordTypes: Set<String>? = nil, resolvingDevices: Bool = false,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws -> Int {
    let handle = try open(url)
    defer { try? handle.close() }
    let parser = AppleHealthExportParser(
      recordTypes: recordTypes, resolvingDevices: resolvingDevices, handler: handler)
    while true {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: chunkSize) ?? Data()
      } catch {
        throw ImportError("cannot read \(url.path): \(SystemProblem.describe(error))")
      }
      if chunk.isEmpty { break }
      try chunk.withUnsafeBytes { try parser.feed($0) }
    }
    try parser.finish()
    return parser.repairedElements
  }

  /// Streams `apple_health_export/export.xml` out of an `export.zip` without unpacking it
  /// to disk; returns the count of repaired items.
  @discardableResult
  public static func readZip(
    at url: URL, recordTypes: Set<String>? = nil, resolvingDevices: Bool = false,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws -> Int {
    let archive: Archive
    do {
      archive = try Archive(url: url, accessMode: .read)
    } catch {
      throw ImportError("\(url.lastPathComponent) is not a readable zip file; export it again")
    }
    let entry =
      archive[zipEntryPath]
      ?? archive.first { $0.type == .file && $0.path.hasSuffix("/export.xml") }
      ?? archive.first { $0.type == .file && $0.path == "export.xml" }
    guard let entry else {
      throw ImportError(
        "\(url.lastPathComponent) has no \(zipEntryPath); is it the zip from 'Export All Health Data'?"
      )
    }
    let parser = AppleHealthExportParser(
      recordTypes: recordTypes, resolvingDevices: resolvingDevices, handler: handler)
    var checksum = ZipCRC32()
    do {
      let consume: (UnsafeRawBufferPointer) throws -> Void = { bytes in
        checksum.update(bytes)
        try parser.feed(bytes)
      }
      if entry.isCompressed {
        try inflate(entry, of: url, consumer: consume)
      } else {
        // ZIPFoundation's own check is byte-at-a-time on Linux; see ZipCRC32.
        _ = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: true) { data in
          try data.withUnsafeBytes { try consume($0) }
        }
      }
    } catch is ZipEntryData.Damaged {
      throw ImportError(
        "\(url.lastPathComponent) is damaged: its directory does not match its entries; export it again"
      )
    } catch is CompressedDataDamaged {
      throw ImportError(
        "\(url.lastPathComponent) is damaged: the compressed data of \(entry.path) is damaged; export it again"
      )
    } catch is CompressedDataEnded {
      throw ImportError(
        "\(url.lastPathComponent) is damaged: the compressed data of \(entry.path) ends early; export it again"
      )
    } catch let error as ImportError {
      throw error
    } catch let error as ImportRejection {
      throw error
    } catch {
      // ZIPFoundation's own text never reaches users.
      let problem = ZipProblem.describe(error) ?? SystemProblem.describe(error)
      throw ImportError("\(url.lastPathComponent) is damaged: \(problem); export it again")
    }
    if entry.checksum != 0, checksum.value != entry.checksum {
      throw ImportError(
        "\(url.lastPathComponent) is damaged: the checksum of \(entry.path) does not match; export it again"
      )
    }
    try parser.finish()
    return parser.repairedElements
  }

  /// The deflate stream of an entry ran out of bytes before its end.
  struct CompressedDataEnded: Error {}

  /// The deflate stream of an entry is not valid deflate data.
  struct CompressedDataDamaged: Error {}

  /// Inflates `entry` with zlib, reading its compressed bytes only, so a damaged stream
  /// that never ends stops with `CompressedDataEnded`. ZIPFoundation's own loop waits for
  /// the stream's end for ever once the file is read to its end, and tells zlib each chunk
  /// is full-sized when the last one is shorter.
  static func inflate(
    _ entry: ZIPFoundation.Entry, of url: URL, consumer: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let handle = try open(url)
    defer { try? handle.close() }
    let data = try ZipEntryData.locate(entry.path, in: handle)
    try handle.seek(toOffset: data.offset)
    var remaining = data.compressedSize
    var stream = z_stream()
    guard
      // checked: the size of z_stream, a few hundred bytes
      inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw CompressedDataDamaged() }
    defer { inflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: chunkSize)
    var status = Z_OK
    while status != Z_STREAM_END {
      guard remaining > 0 else { throw CompressedDataEnded() }
      var input = [UInt8](
        // checked: min of chunkSize (1 MiB) and a UInt64, so at most 1 MiB
        try handle.read(upToCount: Int(min(UInt64(chunkSize), remaining))) ?? Data())
      guard !input.isEmpty else { throw CompressedDataEnded() }
      // checked: a count of at most 1 MiB, and no more than remaining
      remaining -= UInt64(input.count)
      try input.withUnsafeMutableBufferPointer { inBuffer in
        stream.next_in = inBuffer.baseAddress
        // checked: a chunk of at most chunkSize (1 MiB) bytes
        stream.avail_in = UInt32(inBuffer.count)
        // Until this chunk is used up (zlib left room in the output) or the stream ends.
        repeat {
          try output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_out = outBuffer.baseAddress
            // checked: the output buffer holds chunkSize (1 MiB) bytes
            stream.avail_out = UInt32(outBuffer.count)
            status = CWeighZlib.inflate(&stream, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
              throw CompressedDataDamaged()
            }
            // checked: avail_out is at most the buffer's 1 MiB
            let produced = outBuffer.count - Int(stream.avail_out)
            if produced > 0 {
              try consumer(
                UnsafeRawBufferPointer(
                  UnsafeMutableBufferPointer(rebasing: outBuffer[0..<produced])))
            }
          }
        } while status != Z_STREAM_END && stream.avail_out == 0
      }
    }
  }

  static func open(_ url: URL) throws -> FileHandle {
    do {
      return try FileHandle(forReadingFrom: url)
    } catch {
      throw ImportError("cannot open \(url.path); check the path")
    }
  }
}
