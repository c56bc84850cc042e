import PropertyBased
import Testing

@testable import WeighKit

/// A JSON file read in pieces (`ImportJSONWindow`) reads as its whole bytes read: the same
/// records with the same lines, the same document, the same error at the same line and
/// column, whatever the window's size, the pieces the file comes in and where they cut the
/// records (a string, a number, a key, `null`, whitespace, the text before and after the
/// records), for valid files, files cut short and files with a wrong byte anywhere.
@Suite struct ImportJSONWindowTests {
  struct Read: Equatable {
    var records: [ImportJSONRecordShapeTests.Read]
    var document: JSONNode?
    var error: ImportError?
    /// Whether the window gave up and the whole bytes were read.
    var readWhole = false

    static func == (a: Read, b: Read) -> Bool {
      a.records == b.records && a.document == b.document && a.error?.message == b.error?.message
        && a.error?.line == b.error?.line && a.error?.column == b.error?.column
    }
  }

  /// Reads `bytes` whole (`window` nil) or through a window of `capacity` bytes refilled
  /// below `ahead`, from pieces of 1 to `piece` bytes.
  static func read(
    _ bytes: [UInt8], streaming: ImportJSONReader.StreamedArray, keys: [String],
    window: (capacity: Int, ahead: Int, piece: Int, seed: UInt64)? = nil
  ) -> Read {
    var read = Read(records: [])
    let take: (ImportJSONReader.RawRecord) -> Void = { record in
      read.records.append(
        .init(
          line: record.line, isObject: record.isObject,
          values: record.values.indices.map(record.scalar)))
    }
    do {
      if let window {
        var offset = 0
        var state = window.seed | 1
        let source: ImportJSONWindow.Source = { buffer in
          // xorshift: pieces of random sizes.
          state ^= state << 13
          state ^= state >> 7
          state ^= state << 17
          let size = min(buffer.count, bytes.count - offset, 1 + Int(state % UInt64(window.piece)))
          for index in 0..<size { buffer[index] = bytes[offset + index] }
          offset += size
          return size
        }
        read.document = try ImportJSONReader.parse(
          ImportJSONWindow(capacity: window.capacity, ahead: window.ahead, source: source),
          streaming: streaming, keys: keys,
          whole: {
            read.readWhole = true
            return bytes
          }, rawRecord: take)
      } else {
        read.document = try ImportJSONReader.parse(
          bytes, streaming: streaming, keys: keys, rawRecord: take)
      }
    } catch let error as ImportError {
      read.error = error
    } catch {
      Issue.record("not an ImportError: \(error)")
    }
    return read
  }

  /// A random Fitbit-like file (`ImportJSONRecordShapeTests.log`'s changes, some invalid).
  static func fitbitFile(_ changes: [Int], _ style: Int) -> [UInt8] {
    let between = [",\n ", ",", ",\r\n", " ,\n"][style % 4]
    let text =
      "["
      + changes.enumerated().map { index, change in
        ImportJSONRecordShapeTests.log(
          change, index + style, between: [",", ",\n    ", ", ", ",\r\n"][style / 4 % 4])
      }
      .joined(separator: between) + "]" + (style % 3 == 0 ? "\n" : "")
    return Array(text.utf8)
  }

  /// A random weigh-like file: members before and after `entries`, which may be missing.
  static func weighFile(_ changes: [Int], _ style: Int) -> [UInt8] {
    let entries =
      "["
      + changes.enumerated().map { ImportJSONRecordShapeTests.log($1, $0) }
      .joined(separator: ",\n    ") + "\n  ]"
    let before = [
      "\"format\": \"weigh\",\n  \"version\": 1,\n  ", "", "\"settings\": {\"unit\": \"kg\"}, ",
      "\"entrie\": [1, 2], \"note\": \"caf\u{e9} \\u00e9\", ",
    ][style % 4]
    let after = [
      "", ",\n  \"settings\": {\"unit\": \"lb\", \"height_m\": 1.8}", ", \"entries\": 7",
    ][
      style / 4 % 3]
    let name = style % 11 == 0 ? "entries2" : "entries"
    return Array("{\n  \(before)\"\(name)\": \(entries)\(after)\n}\n".utf8)
  }

  /// `bytes` changed as `damage` says: cut short, a byte replaced, or left whole.
  static func damaged(_ bytes: [UInt8], _ damage: Int, _ at: Int) -> [UInt8] {
    guard !bytes.isEmpty else { return bytes }
    var bytes = bytes
    let place = at % bytes.count
    switch damage % 6 {
    case 0: bytes.removeLast(bytes.count - place)
    case 1: bytes[place] = [0x22, 0x5C, 0x7B, 0x5D, 0x2C, 0x31, 0x6E, 0x0A, 0xC3][at % 9]
    case 2: bytes.insert(contentsOf: Array(" \n\t".utf8), at: place)
    default: break
    }
    return bytes
  }

  @Test func randomFilesReadInPiecesReadAsWhole() async {
    await propertyCheck(
      count: 3000, input: Gen.int(in: 0...40).array(of: 0...12), Gen.int(in: 0...10_000)
    ) { changes, pick in
      let weigh = pick % 2 == 1
      let file = weigh ? Self.weighFile(changes, pick / 2) : Self.fitbitFile(changes, pick / 2)
      let bytes = Self.damaged(file, pick / 7, pick * 31 + changes.count)
      let streaming: ImportJSONReader.StreamedArray = weigh ? .member("entries") : .document
      let keys = weigh ? WeighJSONImporter.keys : FitbitJSONImporter.keys
      let whole = Self.read(bytes, streaming: streaming, keys: keys)
      let capacity = 1 + pick % 97
      let windowed = Self.read(
        bytes, streaming: streaming, keys: keys,
        window: (capacity, pick % (capacity + 3), 1 + pick % 13, UInt64(pick)))
      #expect(windowed == whole, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }

  /// Two files cut at every place, through windows of every size up to past the file.
  @Test func filesCutAtEveryPlaceReadAsWhole() {
    let fitbit = Self.fitbitFile([99, 5, 10, 8, 99, 28, 11, 99, 4], 5)
    let weigh = Self.weighFile([99, 99, 13, 99], 5)
    for (file, streaming, keys) in [
      (fitbit, ImportJSONReader.StreamedArray.document, FitbitJSONImporter.keys),
      (weigh, .member("entries"), WeighJSONImporter.keys),
    ] {
      for end in 0...file.count {
        let bytes = Array(file[0..<end])
        let whole = Self.read(bytes, streaming: streaming, keys: keys)
        for capacity in [1, 2, 5, 16, 40, 200] {
          let windowed = Self.read(
            bytes, streaming: streaming, keys: keys,
            window: (capacity, capacity / 2, capacity, UInt64(end)))
          #expect(windowed == whole, "\(end) \(capacity)")
        }
      }
      // The whole file through windows of each size, in pieces of one byte and of many.
      let whole = Self.read(file, streaming: streaming, keys: keys)
      #expect(whole.error == nil)
      for capacity in 1...file.count + 1 {
        for piece in [1, 7] {
          let windowed = Self.read(
            file, streaming: streaming, keys: keys,
            window: (capacity, capacity / 3, piece, UInt64(capacity)))
          #expect(windowed == whole, "\(capacity) \(piece)")
          // Read whole only when the text before the records does not fit the first window.
          let before = file.firstIndex(of: 0x7B)! + (file == fitbit ? 0 : 40)
          #expect(!windowed.readWhole || capacity <= before, "\(capacity) \(piece)")
        }
      }
    }
  }

  /// A file that ends inside a string, inside a number and inside `null`: the error the whole
  /// file gives, where it gives it.
  @Test func aFileEndingInsideAValueFailsAsWhole() {
    let logs = (0..<50).map { ImportJSONRecordShapeTests.log(99, $0) }.joined(separator: ",\n ")
    for ending in [
      "{\"weight\":13", "{\"weight\":132.", "{\"source\":\"Ar", "{\"source\":nu", "{\"d",
    ] {
      let bytes = Array(("[" + logs + ",\n " + ending).utf8)
      let whole = Self.read(bytes, streaming: .document, keys: FitbitJSONImporter.keys)
      #expect(whole.error != nil)
      #expect(whole.records.count == 50)
      for capacity in [8, 64, 300] {
        #expect(
          Self.read(
            bytes, streaming: .document, keys: FitbitJSONImporter.keys,
            window: (capacity, 16, 5, 3)) == whole)
      }
    }
  }
}
