#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A row a repair keeps from a damaged table file: its bytes as they are, or, in a file of
/// the format before checksums, the row decoded (which is then encoded with its checksum).
enum SalvagedRow<Row> {
  /// The row object's bytes (`{"id":…}`), which match `crc`.
  case bytes(UnsafeBufferPointer<UInt8>, crc: UInt32)
  case decoded(Row)
}

extension TableFile {
  /// What the first line of the file at `path` says, as `salvage(path:)` reads it: whether
  /// the file exists and reads, and its sequence (nil when the first line is damaged).
  /// Touches only the first line's pages.
  static func salvageHeader(path: String) -> (exists: Bool, readable: Bool, sequence: Int?) {
    do throws(StoreError) {
      let sequence: Int?? = try StoreFileSystem.withMappedFile(path, populate: false) { bytes in
        var end = bytes.count
        if let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) {
          end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        guard bytes.count > 0 else { return nil }
        var reader = JSONReader(bytes: UnsafeBufferPointer(rebasing: bytes[0..<end]))
        return (try? readHeader(&reader, path: path))?.sequence
      }
      guard let sequence else { return (StoreFileSystem.exists(path), false, nil) }
      return (true, true, sequence)
    } catch {
      return (StoreFileSystem.exists(path), false, nil)
    }
  }

  /// Gives `body` each row of the file's `bytes` that `salvage(path:)` keeps, in order, and
  /// says in `report` what it kept and lost, as `salvage` does (the same lines, the same
  /// messages), without holding the file or its rows: the pages passed are given back
  /// (`TableFilePassedPages`).
  ///
  /// - Complexity: O(n) in the file's size; in memory O(1).
  static func forEachSalvagedRow<E: Error>(
    in bytes: UnsafeBufferPointer<UInt8>, path: String, report: inout TableSalvage,
    _ body: (Int, SalvagedRow<Codec.Row>) throws(E) -> Void
  ) throws(E) {
    guard let base = bytes.baseAddress else { return }
    let prefixCount = rowPrefix.count
    var pages = TableFilePassedPages(bytes, from: 0)
    var checksummed = true
    var lineStart = 0
    var line = 1
    var previousID = 0
    while lineStart < bytes.count {
      var end = bytes.count
      if let found = memchr(base + lineStart, 0x0A, bytes.count - lineStart) {
        end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
      }
      defer {
        lineStart = end + 1
        line += 1
        pages.passed(lineStart)
      }
      if line == 1 {
        var reader = JSONReader(bytes: UnsafeBufferPointer(rebasing: bytes[0..<end]))
        if let header = try? readHeader(&reader, path: path) {
          checksummed = header.checksummed
        } else {
          report.lost(line: 1, "the first line (format and sequence) is damaged")
        }
        continue
      }
      guard end > lineStart, bytes[lineStart] != 0x5D else { continue }
      var stop = end
      if bytes[stop - 1] == 0x2C { stop -= 1 }
      let lineBytes = UnsafeBufferPointer(rebasing: bytes[lineStart..<stop])
      var reader = JSONReader(bytes: lineBytes)
      let kept: (id: Int, row: SalvagedRow<Codec.Row>)
      do throws(JSONSyntaxError) {
        if checksummed {
          let (crc, rowEnd) = try verifyRow(lineBytes, at: 0, reader: reader)
          reader.offset = prefixCount
          let row = try Codec.decode(from: &reader)
          guard reader.offset == rowEnd else { throw reader.error("extra text after the row") }
          kept = (
            Codec.id(of: row),
            .bytes(UnsafeBufferPointer(rebasing: lineBytes[prefixCount..<rowEnd]), crc: crc)
          )
        } else {
          let row = try Codec.decode(from: &reader)
          kept = (Codec.id(of: row), .decoded(row))
        }
        guard kept.id > previousID else {
          throw reader.error("row id \(kept.id) is not greater than the one before it")
        }
      } catch {
        report.lost(line: line, error.message)
        continue
      }
      previousID = kept.id
      report.keptRows += 1
      try body(kept.id, kept.row)
    }
  }

  /// Replaces the file at `path` by the table a repair makes of it, as of `sequence`: the
  /// rows `salvage(path:)` keeps of it (none when it is not `readable`), with `puts` (rows
  /// by increasing id, each id once) in the place of the rows of the same id or among them,
  /// and without the rows whose ids lie in `removed` (runs by increasing id, apart) that
  /// `puts` does not hold; the bytes `encode` writes for the rows `salvage` and the
  /// journal's changes leave in memory. The file is read a piece at a time (its passed
  /// pages given back) and written 1 MiB at a time through its temporary file, synced and
  /// renamed as a compaction writes it; a kept row's line is copied from its bytes with its
  /// checksum, not decoded into an array and encoded again.
  ///
  /// With `largeRun`, the rows of the journal's large last record (by increasing id, put
  /// after every change in `puts` and `removed`) are read back as the file is written and
  /// merged with `puts`, a row of theirs in the place of a put or a file row of the same id.
  ///
  /// - Returns: what was kept and lost (`salvage`'s report) and the greatest id written (0
  ///   for none).
  /// - Throws: `corrupt` when `largeRun`'s record is no longer the one read before, `io`
  ///   when the file cannot be written; the file is then as it was.
  /// - Complexity: O(size of the file + `puts` + `largeRun`'s record); in memory O(1)
  ///   beside `puts` and `removed` (a piece of the record).
  static func salvaging(
    fileAt path: String, readable: Bool, puts: [Codec.Row], removed: [IDStepRun],
    sequence: Int, chunkBytes: Int = 1 << 20, largeRun: StoreJournal.LargeRecordRows? = nil
  ) throws(StoreError) -> (salvage: TableSalvage, largestID: Int) {
    var report = TableSalvage(file: path)
    var largestID = 0
    // An error of the large record's reading, thrown once the writing has stopped.
    var runError: StoreError?
    func write(from bytes: UnsafeBufferPointer<UInt8>) throws(StoreError) {
      try StoreFileSystem.replace(path) { (write) throws(FileWriteError) in
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(chunkBytes + (64 << 10))
        writeHeader(sequence: sequence, into: &writer)
        var tally = Tally()
        var nextPut = puts.startIndex
        var nextRemoved = 0
        var unused = 0
        // The id of the last put written (of `puts` or of `largeRun`).
        var lastPut: Int?
        var batch: [Codec.Row] = []
        func flush() throws(FileWriteError) {
          guard writer.bytes.count >= chunkBytes else { return }
          try write(writer.bytes)
          writer.bytes.removeAll(keepingCapacity: true)
        }
        // The id of the large record's next row (nil after its last).
        func nextRunID(_ run: StoreJournal.LargeRecordRows) throws(FileWriteError) -> Int? {
          do throws(StoreError) {
            return try run.nextID()
          } catch {
            runError = error
            throw FileWriteError(error.message)
          }
        }
        // The puts and the large record's rows merged by id, up to and including `id` (all
        // of them when nil), a few thousand at a time.
        func writeMerged(through id: Int?, _ run: StoreJournal.LargeRecordRows)
          throws(FileWriteError)
        {
          while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < 4096 {
              let putID = nextPut < puts.endIndex ? Codec.id(of: puts[nextPut]) : nil
              let runID = try nextRunID(run)
              guard let next = [putID, runID].compactMap({ $0 }).min(),
                id.map({ next <= $0 }) ?? true
              else { break }
              if putID == next { nextPut += 1 }
              if runID == next {
                // The codec of the table the record was read through: the row decodes.
                batch.append(run.take().value(Codec.self)!)
              } else {
                batch.append(puts[nextPut - 1])
              }
            }
            guard let last = batch.last else { return }
            appendRows(batch[...], into: &writer, tally: &tally, reusing: nil, next: &unused)
            largestID = Codec.id(of: last)
            lastPut = largestID
            try flush()
          }
        }
        // The puts up to and including the row of `id` (all of them when nil), a few
        // thousand at a time.
        func writePuts(through id: Int?) throws(FileWriteError) {
          if let largeRun { return try writeMerged(through: id, largeRun) }
          while nextPut < puts.endIndex {
            var end = nextPut
            while end < puts.endIndex, end - nextPut < 4096,
              id.map({ Codec.id(of: puts[end]) <= $0 }) ?? true
            {
              end += 1
            }
            guard end > nextPut else { return }
            appendRows(
              puts[nextPut..<end], into: &writer, tally: &tally, reusing: nil, next: &unused)
            largestID = Codec.id(of: puts[end - 1])
            lastPut = largestID
            nextPut = end
            try flush()
          }
        }
        try forEachSalvagedRow(in: bytes, path: path, report: &report) {
          (id, row) throws(FileWriteError) in
          try writePuts(through: id)
          // A put of the same id takes the row's place.
          if lastPut == id { return }
          while nextRemoved < removed.count, removed[nextRemoved].upperBound < id {
            nextRemoved += 1
          }
          if nextRemoved < removed.count, removed[nextRemoved].contains(id) { return }
          switch row {
          case .bytes(let bytes, let crc): tally.writeRowLine(bytes, crc: crc, into: &writer)
          case .decoded(let row):
            appendRows([row][...], into: &writer, tally: &tally, reusing: nil, next: &unused)
          }
          largestID = id
          try flush()
        }
        try writePuts(through: nil)
        writeTrailer(tally, into: &writer)
        try write(writer.bytes)
      }
    }
    do throws(StoreError) {
      if readable, try StoreFileSystem.withMappedFile(path, populatingUpTo: 0, write) != nil {
        return (report, largestID)
      }
      if readable || StoreFileSystem.exists(path) {
        report.problem = "cannot be read; its rows are lost"
      }
      try write(from: UnsafeBufferPointer(start: nil, count: 0))
    } catch {
      throw runError ?? error
    }
    return (report, largestID)
  }
}
