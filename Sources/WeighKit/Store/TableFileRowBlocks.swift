/// Where `TableFile` puts the rows it reads: one array, or blocks.
protocol TableRowSink<Row> {
  associatedtype Row
  mutating func append(_ row: consuming Row)
}

extension Array: TableRowSink {}

/// The rows of a table file's second half, in blocks of 16,384, so that they can be moved
/// after the first half's rows one block at a time, each freed once moved: one array of
/// the second half's rows, appended whole, was held beside all the rows at the end of the
/// read (half as much memory again as the table's rows: 61 MiB more for a 2,000,000-entry
/// store).
struct TableRowBlocks<Row>: TableRowSink {
  private static var blockSize: Int { 1 << 14 }
  private(set) var blocks: [[Row]] = []
  private(set) var count = 0

  /// The first row read.
  var first: Row? { blocks.first?.first }

  mutating func append(_ row: consuming Row) {
    if count % Self.blockSize == 0 {
      var block: [Row] = []
      block.reserveCapacity(Self.blockSize)
      blocks.append(block)
    }
    blocks[blocks.count - 1].append(row)
    count += 1
  }

  /// Moves every row after `rows`' own, block by block, giving the freed blocks' memory
  /// back to the system every eight blocks.
  mutating func move(into rows: inout [Row]) {
    rows.reserveCapacity(rows.count + count)
    for index in blocks.indices {
      rows.append(contentsOf: blocks[index])
      blocks[index] = []
      if index % 8 == 7 { FreedMemory.giveBack() }
    }
    blocks = []
    count = 0
    FreedMemory.giveBack()
  }
}
