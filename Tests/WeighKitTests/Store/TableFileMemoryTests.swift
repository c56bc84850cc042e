import Foundation
import Testing

@testable import WeighKit

/// What reading a large table file does to save memory (`TableFilePassedPages`) changes
/// nothing that is read.
@Suite struct TableFileMemoryTests {
  @Test func pagesGivenBackAreReadAgainFromTheFile() throws {
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let page = TableFilePassedPages.pageSize
    let written = (0..<(page * 5 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
    directory.write("table.json", written)
    let path = directory.path + "/table.json"
    let reread = try StoreFileSystem.withMappedFile(path, populate: true) { bytes in
      var pages = TableFilePassedPages(bytes, from: 10, step: page)
      // Each step gives back the whole pages before the offset reached.
      for offset in stride(from: 0, through: bytes.count, by: 700) { pages.passed(offset) }
      return Array(bytes)
    }
    #expect(reread == written)
  }
}
