import Foundation
import Testing

@testable import WeighKit

/// The entries an import numbers at its end (`ImportRenumberedEntries`) come back in the
/// plan's order, every field as it went in, whether they went through the scratch file
/// (rows in order) or were held (a row that goes back), and the scratch file is never seen
/// in the store's folder.
@Suite struct ImportRenumberedEntriesTests {
  /// Random entries with every field set at random, ordered by instant, then line, unless
  /// `goesBack`, where one row in the middle is earlier than the one before.
  static func entries(
    _ count: Int, goesBack: Bool, random: inout ByteCursorTests.Numbers
  ) -> [(Entry, UInt32)] {
    var (instant, line) = (Int64(1_500_000_000), UInt32(2))
    var rows: [(Entry, UInt32)] = []
    let texts = ["Withings", "weigh", "", "après \"run\", ☃", String(repeating: "x", count: 300)]
    for index in 0..<count {
      instant += Int64(random.below(3)) * 60
      line += 1 + UInt32(random.below(3))
      var rowInstant = instant
      if goesBack, index == count / 2 { rowInstant -= 600 }
      func pick(_ n: UInt64) -> Int { Int(random.below(n)) }
      let entry = Entry(
        id: 0, instant: rowInstant, kilograms: 40 + Double(random.below(100_000)) / 997,
        origin: [Origin.manual, .health, .import][pick(3)], source: texts[pick(5)],
        note: pick(3) == 0 ? texts[pick(5)] : nil, revision: 1 + pick(4),
        healthUUID: pick(4) == 0 ? UUID().uuidString : nil,
        pushedUUID: pick(5) == 0 ? UUID().uuidString : nil,
        pushedRevision: pick(5) == 0 ? pick(9) : nil,
        fileTime: pick(2) == 0 ? rowInstant + 3600 : nil)
      rows.append((entry, line))
    }
    return rows
  }

  @Test(arguments: [(1, false), (2, false), (3, true), (4, true), (5, false)])
  func theEntriesComeBackInThePlansOrder(seed: Int, goesBack: Bool) throws {
    var random = ByteCursorTests.Numbers(state: UInt64(seed))
    let directory = TemporaryStoreDirectory()
    defer { directory.remove() }
    let count = [0, 1, 700, 5_000, 40_000][seed - 1]
    let rows = Self.entries(count, goesBack: goesBack, random: &random)
    var made = 0
    let pieceBytes = 64 + Int(random.below(8192))
    func keep() -> ImportRenumberedEntries {
      let kept = ImportRenumberedEntries(pieceBytes: pieceBytes) {
        made += 1
        return try? StoreScratchFile(path: directory.file("entries.json.scratch.tmp"))
      }
      for (entry, line) in rows { #expect(kept.append(entry, line: line)) }
      return kept
    }
    let kept = keep()
    #expect(kept.count == rows.count)
    var expected = rows.map(\.0)
    var lines = rows.map(\.1)
    ImportPlan.sortByTime(&expected, lines: &lines)
    #expect(goesBack == (expected != rows.map(\.0)))
    let size = 1 + Int(random.below(3000))
    var back: [Entry] = []
    var pieces: [Int] = []
    #expect(
      kept.forEachPiece(of: size) {
        back += $0
        pieces.append($0.count)
        return true
      })
    #expect(back == expected)
    #expect(pieces.dropLast().allSatisfy { $0 == size })
    // Rows over a piece's bytes go to the file: one made, never left in the folder.
    if count != 1 { #expect(made == (count > 0 ? 1 : 0), "\(count) rows, \(pieceBytes)") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    if count > size {
      var calls = 0
      #expect(
        !keep().forEachPiece(of: size) { _ in
          calls += 1
          return false
        })
      #expect(calls == 1)
    }
  }
}
