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

  /// The first line's bytes (up to the first chunk's end), for readers that look at the
  /// header before reading (the generic reader's delimiter).
  func firstLine() throws -> [UInt8] {
    var line: [UInt8] = []
    do {
      try forEachChunk { chunk in
        line = Array(chunk.prefix { $0 != 0x0A })
        throw FirstChunkRead()
      }
    } catch is FirstChunkRead {}
    return line
  }

  /// Stops ``firstLine()``'s read after one chunk.
  private struct FirstChunkRead: Error {}

  /// All the bytes, for the readers that need the whole document (JSON).
  func allBytes() throws -> [UInt8] {
    if case .bytes(let bytes) = self { return bytes }
    var all: [UInt8] = []
    try forEachChunk { all.append(contentsOf: $0) }
    return all
  }
}
