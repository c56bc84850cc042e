/// The fuzz targets' check of the JSON readers read in pieces (``ImportJSONWindow``): the
/// fuzzed bytes read through a small window, in pieces whose sizes the bytes pick, must give
/// the records, document and error that the whole bytes give; any difference traps.
enum FuzzWindowCheck {
  /// What a parse gave: each record's line, kind and values, then the document or error.
  private struct Outcome: Equatable {
    var records: [ImportJSONReader.Record] = []
    var document: JSONNode?
    var error: ImportError?

    static func == (a: Outcome, b: Outcome) -> Bool {
      a.document == b.document && a.error == b.error
        && a.records.map { [$0.line, $0.isObject ? 1 : 0] }
          == b.records.map { [$0.line, $0.isObject ? 1 : 0] }
        && a.records.map(\.values) == b.records.map(\.values)
    }
  }

  /// Traps when `bytes` read in pieces differ from `bytes` read whole.
  static func check(
    _ bytes: [UInt8], streaming: ImportJSONReader.StreamedArray, keys: [String]
  ) {
    func outcome(_ window: ImportJSONWindow?) -> Outcome {
      var outcome = Outcome()
      let take: (ImportJSONReader.RawRecord) -> Void = { raw in
        outcome.records.append(
          .init(line: raw.line, isObject: raw.isObject, values: raw.values.indices.map(raw.scalar)))
      }
      do {
        if let window {
          outcome.document = try ImportJSONReader.parse(
            window, streaming: streaming, keys: keys, whole: { bytes }, rawRecord: take)
        } else {
          outcome.document = try ImportJSONReader.parse(
            bytes, streaming: streaming, keys: keys, rawRecord: take)
        }
      } catch {
        outcome.error = error as? ImportError
      }
      return outcome
    }
    let capacity = 1 + bytes.count % 61
    // checked: a byte widened to Int.
    let piece = 1 + Int(bytes.first ?? 0) % 7
    var offset = 0
    let window = ImportJSONWindow(capacity: capacity, ahead: capacity / 2) { buffer in
      let size = min(buffer.count, bytes.count - offset, piece)
      for index in 0..<size { buffer[index] = bytes[offset + index] }
      offset += size
      return size
    }
    precondition(outcome(window) == outcome(nil), "a JSON file read in pieces read otherwise")
  }
}
