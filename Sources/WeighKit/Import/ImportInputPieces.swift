import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An input read piece by piece into a buffer the reader keeps (``ImportJSONWindow``):
/// straight from the file into it, without a `Data` made for each piece.
final class ImportInputPieces {
  private let url: URL?
  private let handle: FileHandle?
  private let bytes: [UInt8]
  private var offset = 0

  init(url: URL, handle: FileHandle) {
    self.url = url
    self.handle = handle
    bytes = []
  }

  init(bytes: [UInt8]) {
    url = nil
    handle = nil
    self.bytes = bytes
  }

  deinit { try? handle?.close() }

  /// Reads the next bytes into `buffer` (as many as it holds, fewer near the end); 0 at the
  /// end.
  ///
  /// - Throws: `ImportError` when the file cannot be read.
  func read(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let handle, let url, let base = buffer.baseAddress else {
      let count = min(buffer.count, bytes.count - offset)
      bytes.withUnsafeBytes { all in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
      }
      offset += count
      return count
    }
    while true {
      #if canImport(Glibc)
        let count = Glibc.read(handle.fileDescriptor, base, buffer.count)
      #else
        let count = Darwin.read(handle.fileDescriptor, base, buffer.count)
      #endif
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw ImportError("cannot read \(url.path): \(SystemProblem.describe(errno: errno))")
    }
  }
}
