import Foundation
import Testing
import ZIPFoundation

@testable import WeighKit

@Suite struct ZipCRC32Tests {
  @Test func matchesTheStandardCheckValue() {
    var crc = ZipCRC32()
    Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
    #expect(crc.value == 0xCBF4_3926)
  }

  @Test func sameValueWhateverTheChunks() {
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    var whole = ZipCRC32()
    bytes.withUnsafeBytes { whole.update($0) }
    var pieces = ZipCRC32()
    for start in stride(from: 0, to: bytes.count, by: 13) {
      bytes[start..<min(start + 13, bytes.count)].withUnsafeBytes { pieces.update($0) }
    }
    #expect(whole.value == pieces.value)
    #expect(whole.value == Data(bytes).crc32(checksum: 0))
  }

  @Test func aDamagedStoredEntryIsRejected() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let xml = folder.appendingPathComponent("export.xml")
    try Data(Fixtures.bytes("apple/export-with-dtd.xml")).write(to: xml)
    let zip = folder.appendingPathComponent("export.zip")
    let archive = try Archive(url: zip, accessMode: .create)
    try archive.addEntry(with: AppleHealthExportReader.zipEntryPath, fileURL: xml)
    #expect(try AppleHealthWeightImporter.importWeights(from: zip).weights.count == 4)
    // Change value="68.5" to value="68.6": still well-formed, so only the checksum tells.
    var bytes = Array(try Data(contentsOf: zip))
    let needle = Array("value=\"68.5\"".utf8)
    let at = try #require(
      (0...(bytes.count - needle.count)).first {
        bytes[$0..<($0 + needle.count)].elementsEqual(needle)
      })
    bytes[at + 10] = UInt8(ascii: "6")
    try Data(bytes).write(to: zip)
    #expect(throws: ImportError.self) { try AppleHealthWeightImporter.importWeights(from: zip) }
  }
}

extension ZipCRC32Tests {
  /// Eight bytes a step from one word (wstore10): the same value as ZIPFoundation's
  /// byte-at-a-time CRC for every length from 0 to 300 and every alignment of the start.
  @Test func everyLengthAndAlignmentHasTheStandardValue() {
    var state: UInt64 = 99
    let bytes = (0..<400).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
    for start in 0..<8 {
      for length in 0...300 {
        let piece = bytes[start..<(start + length)]
        var crc = ZipCRC32()
        piece.withUnsafeBytes { crc.update($0) }
        #expect(crc.value == Data(piece).crc32(checksum: 0), "\(start), \(length)")
      }
    }
  }
}
