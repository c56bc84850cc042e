import Foundation
import ZIPFoundation

/// ZIPFoundation's errors in weigh's own words (its case names never reach users).
enum ZipProblem {
  /// What is wrong with an archive being read, or nil when `error` is not ZIPFoundation's.
  static func describe(_ error: any Error) -> String? {
    if let error = error as? Archive.ArchiveError {
      switch error {
      case .unreadableArchive: return "the archive cannot be read"
      case .unwritableArchive: return "the archive cannot be written"
      case .invalidCRC32: return "a checksum does not match"
      case .cancelledOperation: return "the operation was cancelled"
      case .invalidEntryPath, .uncontainedSymlink: return "it holds an entry with a bad path"
      case .invalidCompressionMethod: return "it uses a compression method weigh cannot read"
      case .missingEndOfCentralDirectoryRecord: return "its directory of entries is missing"
      default: return "its structure is damaged"
      }
    }
    if error is Data.DataError { return "its data ends early" }
    if error is MemoryFileError { return "the archive cannot be read" }
    let name = String(reflecting: type(of: error))
    // Errors ZIPFoundation does not make public (its decompressor's, say).
    if name.hasPrefix("ZIPFoundation.") { return "its compressed data is damaged" }
    return nil
  }
}
