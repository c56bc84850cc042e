import Foundation
import Testing

@testable import WeighKit

@Suite struct ZipEntryDataTests {
  static let goldenFiles = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "golden/files")

  @Test func locatesTheExportEntrysCompressedBytes() throws {
    let url = Self.goldenFiles.appending(path: "apple-export.zip")
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let data = try ZipEntryData.locate(AppleHealthExportReader.zipEntryPath, in: handle)
    let size = try handle.seekToEnd()
    // The bytes lie inside the file, after the local header and its name.
    #expect(data.offset >= 30 + UInt64(AppleHealthExportReader.zipEntryPath.utf8.count))
    #expect(data.compressedSize > 0)
    #expect(data.offset + data.compressedSize <= size)
    #expect(throws: ZipEntryData.Damaged.self) {
      try ZipEntryData.locate("apple_health_export/missing.xml", in: handle)
    }
  }

  @Test func aDeflateStreamThatNeverEndsIsAnErrorNotAHang() throws {
    let url = Self.goldenFiles.appending(path: "apple-damaged.zip")
    let error = #expect(throws: ImportError.self) {
      try AppleHealthExportReader.read(contentsOf: url) { _, _ in }
    }
    #expect(error?.message.contains("apple-damaged.zip is damaged") == true)
  }

  @Test func theUndamagedExportStillReads() throws {
    let url = Self.goldenFiles.appending(path: "apple-export.zip")
    var items = 0
    try AppleHealthExportReader.read(contentsOf: url) { _, _ in items += 1 }
    #expect(items > 0)
  }
}
