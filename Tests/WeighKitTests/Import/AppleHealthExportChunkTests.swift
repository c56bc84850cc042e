import Testing

@testable import WeighKit

/// A token a chunk cuts is finished with a piece of the next chunk and the rest is read in
/// place: the items, lines, repairs and errors are those of the file read whole.
struct AppleHealthExportChunkTests {
  /// What reading `bytes` in chunks of `sizes` (in turn) gives: the items and their lines, or
  /// the error's line, column and message.
  private func outcome(_ bytes: [UInt8], sizes: [Int]) -> String {
    var items: [String] = []
    let parser = AppleHealthExportParser(recordTypes: nil) { item, line in
      items.append("\(line) \(item)")
    }
    do {
      try parser.feed(bytes, inChunksOf: sizes)
      try parser.finish()
      return items.joined(separator: "\n") + "\nrepaired \(parser.repairedElements)"
    } catch let error as ImportError {
      let place = "\(error.line ?? 0):\(error.column ?? 0)"
      return items.joined(separator: "\n") + "\nerror \(place) \(error)"
    } catch {
      return "other error \(error)"
    }
  }

  /// An export whose tokens run longer than the first piece (4 KiB) and its doublings.
  private func document(longValue: Int, longComment: Int, tail: String) -> [UInt8] {
    let value = String(repeating: "ab&amp;c\nd ", count: longValue / 11)
    let comment = String(repeating: "x-y\n", count: longComment / 4)
    let record = """
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" \
      startDate="2026-01-03 07:30:00 +0100" endDate="2026-01-03 07:35:00 +0100" value="12"/>

      """
    let text =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT a (b)>\n]>\n"
      + "<HealthData locale=\"en\">\n" + String(repeating: record, count: 30)
      + " <Me note=\"\(value)\"/>\n <!--\(comment)-->\n"
      + " <Record type=\"T\" sourceName=\"s\" Health Mate App Version=\"2.6\" "
      + "startDate=\"2026-01-03 07:30:00 +0100\" endDate=\"2026-01-03 07:30:00 +0100\"/>\n"
      + String(repeating: record, count: 30) + tail
    return Array(text.utf8)
  }

  @Test func sameOutcomeWhateverTheChunks() {
    let tails = ["</HealthData>\n", " <Record type=\"T\" x=\"<\"/>\n</HealthData>\n", " <Rec"]
    for tail in tails {
      for (longValue, longComment) in [(100, 100), (5000, 9000), (40_000, 70_000)] {
        let bytes = document(longValue: longValue, longComment: longComment, tail: tail)
        let whole = outcome(bytes, sizes: [bytes.count])
        // One byte at a time re-reads an unfinished token's bytes each time: the short
        // document only.
        let oneByte: [[Int]] = longValue > 100 ? [] : [[1]]
        for sizes in oneByte + [[3, 5000], [4095, 4097], [8191], [65_536], [100, 20_000, 7]] {
          let chunked = outcome(bytes, sizes: sizes)
          #expect(chunked == whole, "sizes \(sizes), tail \(tail), value \(longValue)")
        }
      }
    }
  }
}
