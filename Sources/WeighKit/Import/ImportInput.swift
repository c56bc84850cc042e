import Foundation

/// What a reader reads: bytes already in memory (tests, fuzzing) or a file, read in chunks
/// so that memory does not grow with the file.
public enum ImportInput: Sendable {
  case bytes([UInt8])
  case file(URL)

  /// The size of a chunk read from a file: 1 MiB, as the Apple Health reader reads.
  static let chunkSize = 1 << 20

  /// Calls `body` with the input's bytes, one chunk after another (never an empty one).
  ///
  /// - Throws: `ImportError` when the file cannot be opened or read, or what `body` throws.
  func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    switch self {
    case .bytes(let bytes):
      try bytes.withUnsafeBufferPointer { try body($0) }
    case .file(let url):
      let handle: FileHandle
      do {
        handle = try FileHandle(forReadingFrom: url)
      } catch {
        throw ImportError("cannot read \(url.path); check the path")
      }
      defer { try? handle.close() }
      while true {
        let chunk: Data
        do {
          chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
        } catch {
          throw ImportError("cannot read \(url.path): \(SystemProblem.describe(error))")
        }
        if chunk.isEmpty { return }
        try chunk.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
      }
    }
  }

  /// The input's size in bytes, for a reader's first guess of its records (0 when the
  /// file's size cannot be known).
  var byteCount: Int {
    switch self {
    case .bytes(let bytes): return bytes.count
    case .file(let url):
      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int
      return size ?? 0
    }
  }

  /// The first line's bytes (up to the first chunk's end), for readers that look at the
  /// header before reading (the generic reader's delimiter).
  func firstLine() throws -> [UInt8] {
    var line: [UInt8] = []
    do {
      try forEachChunk { chunk in
        // `\r` ends it too: a file may end its lines with `\r` alone (`CSVReader`).
        line = Array(chunk.prefix { $0 != 0x0A && $0 != 0x0D })
        throw FirstChunkRead()
      }
    } catch is FirstChunkRead {}
    return line
  }

  /// Stops ``firstLine()``'s read after one chunk.
  private struct FirstChunkRead: Error {}

  /// The input's bytes read piece by piece into the caller's buffer
  /// (``ImportJSONWindow``), the file opened now.
  ///
  /// - Throws: `ImportError` when the file cannot be opened.
  func pieces() throws -> ImportInputPieces {
    switch self {
    case .bytes(let bytes): return ImportInputPieces(bytes: bytes)
    case .file(let url):
      do {
        return ImportInputPieces(url: url, handle: try FileHandle(forReadingFrom: url))
      } catch {
        throw ImportError("cannot read \(url.path); check the path")
      }
    }
  }

  /// All the bytes, for a JSON document whose start does not lie in its first piece.
  func allBytes() throws -> [UInt8] {
    if case .bytes(let bytes) = self { return bytes }
    var all: [UInt8] = []
    try forEachChunk { all.append(contentsOf: $0) }
    return all
  }
}
