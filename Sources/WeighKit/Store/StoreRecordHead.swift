/// The first bytes of a journal record that the journal file already holds when the record
/// is handed on before it is whole: a streamed run's rows, written as they were read
/// (`Store.streamRun`). Read back a piece at a time, never whole (docs/store.md, "The
/// pending record written in pieces (hpend21)").
public struct StoreRecordHead: Hashable, Sendable {
  /// The journal file.
  public var path: String
  /// Where the head lies in it.
  public var range: Range<Int>

  /// A head of `range` in the file at `path`.
  public init(path: String, range: Range<Int>) {
    self.path = path
    self.range = range
  }

  /// The head's length in bytes.
  public var byteCount: Int { range.count }

  /// Hands the head to `body`, `pieceBytes` at a time (the same buffer each time).
  ///
  /// - Throws: `corrupt` when the file cannot be read or ends before the head does, or what
  ///   `body` throws.
  public func read(
    pieceBytes: Int, _ body: (UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) {
    try StoreFileSystem.readPieces(path, range, pieceBytes: pieceBytes) {
      (piece) throws(StoreError) in try body(UnsafeRawBufferPointer(piece))
    }
  }

  /// The head's bytes, whole: for a record small enough to hold.
  public func bytes() throws(StoreError) -> [UInt8] {
    var whole: [UInt8] = []
    whole.reserveCapacity(byteCount)
    try read(pieceBytes: 1 << 20) { (piece) throws(StoreError) in whole.append(contentsOf: piece) }
    return whole
  }
}
