import Foundation

/// Reads Fitbit's `weight-YYYY-MM-DD.json`:
/// `[{"logId":…,"weight":193.9,"bmi":28.08,"date":"07/05/17","time":"12:44:00","source":"Aria"}]`.
public enum FitbitJSONImporter {
  /// The weights of a Fitbit weight file, local times read in `zone`.
  ///
  /// Fitbit writes pounds whatever the profile says, without naming the unit; weights are
  /// read in `unit` (lb when nil) and the result says so.
  public static func importWeights(_ bytes: [UInt8], zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    try importWeights(.bytes(bytes), zone: zone, unit: unit)
  }

  /// The weights of a Fitbit weight file read in pieces (or of bytes in memory).
  public static func importWeights(_ input: ImportInput, zone: ZonedClock, unit: MassUnit? = nil)
    throws -> WeightImportResult
  {
    var result = WeightImportResult(format: .fitbitJSON)
    result.zoneless = true
    if unit == nil {
      result.unitNote =
        "Fitbit weight files do not name their unit; weight was read as lb, as Fitbit exports"
    }
    // A log like the one above takes about 100 bytes, a generated one 115: one log per 128
    // bytes leaves the table one doubling or none.
    var seen = WeightKeySet(expected: input.byteCount / 128)
    var sources = FitbitSources()
    // Each log is taken as it is read, its members read without a tree: the file is never
    // held as a tree of every log, nor a log as a tree of its members; its number, date and
    // time are read from the document's bytes.
    let document = try ImportJSONReader.parse(
      input, streaming: .document, keys: keys,
      rawRecord: {
        log in
        do throws(ImportRejection) {
          guard log.isObject else {
            throw ImportRejection(
              line: log.line, reason: "expected an object with weight, date and time")
          }
          guard case .number(let written)? = log.values[0] else {
            throw ImportRejection(line: log.line, reason: "no numeric \"weight\" in this log")
          }
          guard let weight = DecimalText.parseJSONNumber(utf8: written) else {
            let text = String(decoding: written, as: UTF8.self)
            throw ImportRejection(
              line: log.line, reason: "weight \(text) is too small or too large to be a weight")
          }
          let date: (Int, Int, Int)?
          switch log.values[1] {
          case .ascii(let bytes)?:
            date =
              FixedWidthTime.read(bytes, separator: 0x2F)
              ?? LocalDateTime.numbers(bytes, separator: 0x2F, widths: (1...2, 1...2, 2...4))
          case .string(let slot)?:
            date = LocalDateTime.numbers(
              log.decoded[slot].utf8, separator: 0x2F, widths: (1...2, 1...2, 2...4))
          default: date = nil  // what an empty text reads
          }
          guard let n = date else {
            throw ImportRejection(
              line: log.line,
              reason: "date '\(log.string(1) ?? "")' is not like 07/05/17 (MM/DD/YY)")
          }
          let clock: (Int, Int, Int)?
          switch log.values[2] {
          case .ascii(let bytes)?:
            clock = FixedWidthTime.read(bytes, separator: 0x3A) ?? LocalDateTime.time(ascii: bytes)
          case .string(let slot)?: clock = LocalDateTime.time(log.decoded[slot])
          default: clock = LocalDateTime.time("00:00:00")
          }
          guard let clock,
            let moment = LocalDateTime(
              year: n.2 < 100 ? 2000 + n.2 : n.2, month: n.0, day: n.1, hour: clock.0,
              minute: clock.1, second: clock.2)
          else {
            throw ImportRejection(
              line: log.line,
              reason: "date '\(log.string(1) ?? "") \(log.string(2) ?? "00:00:00")' does not exist")
          }
          let massUnit = unit ?? .lb
          let kilograms = try ImportedWeight.validate(
            kilograms: massUnit.toKilograms(weight), written: String(weight), unit: massUnit,
            line: log.line)
          // A vendor's row made directly: the public initializer's entry and file time
          // steps took about 120 instructions a log (wjson10, callgrind). The wall-clock
          // time counted once (`instant(in:)` is `instant(ofWall: wallSeconds)`): each
          // count of the days took 79 instructions a log (wfit12, callgrind).
          let wall = moment.wallSeconds
          result.add(
            ImportedWeight(
              vendorRow: zone.instant(ofWall: wall), kilograms: kilograms,
              source: sources.source(log, 3), note: nil, line: log.line, fileTime: wall),
            seen: &seen)
        } catch {
          result.rejections.append(error)
        }
      })
    guard case .array = document.value else {
      throw ImportError(line: document.line, "expected a Fitbit weight file: a JSON array of logs")
    }
    return result
  }

  /// The members a log is read for, in the order of `Record.values`.
  static let keys = ["weight", "date", "time", "source"]
}

/// A log's source, `Fitbit Aria`, made once for a run of logs of one device rather than for
/// each log.
private struct FitbitSources {
  private var sources = ImportJSONRepeatedText(prefix: "Fitbit ")

  /// `Fitbit` and the log's `source` (key `index`) when it is a string; `Fitbit` alone
  /// otherwise.
  mutating func source(_ log: ImportJSONReader.RawRecord, _ index: Int) -> String {
    switch log.values[index] {
    case .ascii(let bytes)?: return sources.text(bytes)
    case .string(let slot)?: return "Fitbit \(log.decoded[slot])"
    default: return "Fitbit"
    }
  }
}

/// The shape every Fitbit log's date and time have, `07/05/17` and `12:44:00`: three numbers
/// of two digits with a separator between them, read in one step. Any other text returns nil
/// and goes through `LocalDateTime` as before, which reads this shape to the same three
/// numbers (`FitbitFixedWidthTimeTests`). The general reading took about 480 instructions a
/// log for the two (wjson9, callgrind, 100,000 logs).
enum FixedWidthTime {
  /// The three numbers of `dd?dd?dd` (each `d` a digit, `?` the separator), or nil.
  @inline(__always)
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8) -> (Int, Int, Int)? {
    guard bytes.count == 8, bytes[2] == separator, bytes[5] == separator else { return nil }
    let a0 = bytes[0] &- 0x30, a1 = bytes[1] &- 0x30
    let b0 = bytes[3] &- 0x30, b1 = bytes[4] &- 0x30
    let c0 = bytes[6] &- 0x30, c1 = bytes[7] &- 0x30
    guard a0 < 10, a1 < 10, b0 < 10, b1 < 10, c0 < 10, c1 < 10 else { return nil }
    // checked: bytes below 10 widened to Int
    return (Int(a0) * 10 + Int(a1), Int(b0) * 10 + Int(b1), Int(c0) * 10 + Int(c1))
  }
}
