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
  /// item to `handler`.
  ///
  /// - Throws: `ImportError` when the file cannot be read or is not well-formed; the items
  ///   already handed over must then be discarded.
  /// - Complexity: O(file size) time; memory independent of the file size.
  public static func read(
    contentsOf url: URL, recordTypes: Set<String>? = nil,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws {
    if try isZip(url) {
      try readZip(at: url, recordTypes: recordTypes, handler: handler)
    } else {
      try readXML(at: url, recordTypes: recordTypes, handler: handler)
    }
  }

  /// Whether the file starts with a zip local header (`PK\u{3}\u{4}`).
  public static func isZip(_ url: URL) throws -> Bool {
    let handle = try open(url)
    defer { try? handle.close() }
    let head = try handle.read(upToCount: 4) ?? Data()
    return head.elementsEqual([0x50, 0x4B, 0x03, 0x04])
  }

  /// Reads a plain `export.xml`.
  public static func readXML(
    at url: URL, recordTypes: Set<String>? = nil,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws {
    let handle = try open(url)
    defer { try? handle.close() }
    let parser = AppleHealthExportParser(recordTypes: recordTypes, handler: handler)
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
  }

  /// Streams `apple_health_export/export.xml` out of an `export.zip` without unpacking it
  /// to disk.
  public static func readZip(
    at url: URL, recordTypes: Set<String>? = nil,
    handler: @escaping AppleHealthExportParser.Handler
  ) throws {
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
    let parser = AppleHealthExportParser(recordTypes: recordTypes, handler: handler)
    var checksum = ZipCRC32()
    do {
      // ZIPFoundation's own check is byte-at-a-time on Linux; see ZipCRC32.
      _ = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: true) { data in
        try data.withUnsafeBytes {
          checksum.update($0)
          try parser.feed($0)
        }
      }
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
  }

  static func open(_ url: URL) throws -> FileHandle {
    do {
      return try FileHandle(forReadingFrom: url)
    } catch {
      throw ImportError("cannot open \(url.path); check the path")
    }
  }
}
