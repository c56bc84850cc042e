import Foundation

/// The text of a member's ASCII string made once for a run of records that hold the same
/// bytes there (a Fitbit log's `source`, a weigh entry's `source`), rather than once a record.
///
/// Why: making `Withings` from its bytes took about 96 instructions a weigh entry
/// (`String(decoding:as:)`); compared with the last bytes, a Fitbit log's source takes about
/// 46 (wread11, callgrind, 100,000 records).
struct ImportJSONRepeatedText {
  /// Written before each text made (`Fitbit ` for a Fitbit log's source).
  let prefix: String
  private var lastBytes: [UInt8] = []
  private var last: String?

  init(prefix: String = "") { self.prefix = prefix }

  /// `prefix` followed by `bytes` read as UTF-8 (ASCII here), the last text when `bytes` are
  /// the last bytes.
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    if let last, lastBytes.count == bytes.count {
      // Compared as memory: the generic `elementsEqual` took about 140 instructions a log.
      let same = lastBytes.withUnsafeBufferPointer { lastBuffer in
        guard let lastBase = lastBuffer.baseAddress, let base = bytes.baseAddress else {
          return true
        }
        return memcmp(lastBase, base, bytes.count) == 0
      }
      if same { return last }
    }
    lastBytes = Array(bytes)
    let made = prefix + String(decoding: bytes, as: UTF8.self)
    last = made
    return made
  }
}
