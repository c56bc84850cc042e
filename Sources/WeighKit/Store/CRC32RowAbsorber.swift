// checked-file: bit arithmetic on UInt32 values and table indices masked to 0…255 or below
// the table's size; no value here can trap.

/// Takes a run of streamed rows' own checksums into a journal record's, when the bytes
/// between two rows are always the same (`},{"put":"entries","row":`): for a gap G of g bytes
/// and a row R of L bytes after the record's bytes A, crc(A ‖ G ‖ R) = S(g+L)(crc(A)) ⊕
/// S(L)(crc(G)) ⊕ crc(R), where S(n) shifts a checksum through n zero bytes
/// (`CRC32Combination`). An import's rows take a few lengths only, so S(g+L) is kept as four
/// byte tables per length seen and S(L)(crc(G)) as one value: a row costs four table steps,
/// where running the CRC over the gap and combining the row by the powers of two of its
/// length cost about 320 instructions (callgrind, 100,000 MyFitnessPal rows, wstore10).
///
/// Rows of lengths past `maximumLengths` distinct ones (rows with notes of every length) go
/// through `CRC32Combination` as before, so no run pays more than `maximumLengths` tables.
struct CRC32RowAbsorber {
  /// The distinct row lengths given tables of their own.
  static let maximumLengths = 32

  /// The checksum of the gap's bytes.
  let gapCRC: UInt32
  /// The gap's length.
  let gapLength: Int
  /// Row length of each kept shift, in order of first sight.
  private var lengths: [Int] = []
  /// S(L)(crc(G)) for each kept length.
  private var gapTerms: [UInt32] = []
  /// S(g+L) as four tables of 256 entries for each kept length, one after the other.
  private var tables: [UInt32] = []
  /// The slot of the last length found (rows of one length often follow each other).
  private var last = 0

  /// An absorber for rows that each follow `gap`.
  init(gap: [UInt8]) {
    var crc = ZipCRC32()
    gap.withUnsafeBytes { crc.update($0) }
    gapCRC = crc.value
    gapLength = gap.count
  }

  /// The checksum of the record's bytes (whose checksum is `record`) followed by the gap and
  /// a row of `rowLength` bytes whose own checksum is `row`.
  mutating func absorb(_ record: UInt32, row: UInt32, rowLength: Int) -> UInt32 {
    guard let slot = slot(for: rowLength) else {
      let withGap = CRC32Combination.combine(record, gapCRC, secondLength: gapLength)
      return CRC32Combination.combine(withGap, row, secondLength: rowLength)
    }
    let base = slot &* 1024
    return tables.withUnsafeBufferPointer { tables in
      tables[base &+ Int(record & 0xFF)]
        ^ tables[base &+ 256 &+ Int(record >> 8 & 0xFF)]
        ^ tables[base &+ 512 &+ Int(record >> 16 & 0xFF)]
        ^ tables[base &+ 768 &+ Int(record >> 24)]
    } ^ gapTerms[slot] ^ row
  }

  /// The slot of `rowLength`'s tables, made on first sight while there is room.
  private mutating func slot(for rowLength: Int) -> Int? {
    if last < lengths.count, lengths[last] == rowLength { return last }
    if let found = lengths.firstIndex(of: rowLength) {
      last = found
      return found
    }
    guard lengths.count < Self.maximumLengths else { return nil }
    let shift = gapLength + rowLength
    // The images of the 32 one-bit registers, then every byte value at each of the four
    // byte places by xor of its lowest bit's image and the rest's (the map is linear).
    let basis = (0..<32).map { (bit: Int) in
      CRC32Combination.combine(UInt32(1) << UInt32(bit), 0, secondLength: shift)
    }
    var block = [UInt32](repeating: 0, count: 1024)
    for place in 0..<4 {
      for value in 1..<256 {
        let lowest = value & -value
        block[256 * place + value] =
          block[256 * place + (value ^ lowest)] ^ basis[8 * place + lowest.trailingZeroBitCount]
      }
    }
    tables += block
    gapTerms.append(CRC32Combination.combine(gapCRC, 0, secondLength: rowLength))
    lengths.append(rowLength)
    last = lengths.count - 1
    return last
  }
}
