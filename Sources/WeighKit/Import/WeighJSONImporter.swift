/// Reads weigh's own JSON (`export FILE as json`) back into entries, exactly as written.
public enum WeighJSONImporter {
  /// The entries of a weigh JSON file; each weight carries its whole entry.
  ///
  /// - Throws: `ImportError` for a syntax error, a document that is not weigh's, or a
  ///   `version` other than 1.
  public static func importWeights(_ bytes: [UInt8]) throws -> WeightImportResult {
    try importWeights(.bytes(bytes))
  }

  /// The entries of a weigh JSON file read in pieces (or of bytes in memory).
  public static func importWeights(_ input: ImportInput) throws -> WeightImportResult {
    var result = WeightImportResult(format: .weighJSON)
    var seen = WeightKeySet()
    var sources = ImportJSONRepeatedText()
    // Each entry is taken as it is read, its members read without a tree: the file is never
    // held as a tree of every entry. The checks of the document below come after, and a
    // refused file keeps none of them.
    let document = try ImportJSONReader.parse(
      input, streaming: .member("entries"), keys: keys,
      rawRecord: {
        entry in
        do throws(ImportRejection) {
          result.add(try weight(entry, sources: &sources), seen: &seen)
        } catch {
          result.rejections.append(error)
        }
      })
    guard document.value["format"]?.string == "weigh",
      case .array? = document.value["entries"]?.value
    else {
      throw ImportError(
        line: document.line, "expected weigh's JSON: {\"format\": \"weigh\", \"entries\": […]}")
    }
    // A later weigh may write a version this one cannot read: refuse it rather than guess.
    guard let version = document.value["version"] else {
      throw ImportError(
        line: document.line,
        "weigh's JSON lacks \"version\"; this weigh reads version 1 (as export writes it)")
    }
    guard case .number(let text) = version.value, text == "1" else {
      let found: String
      switch version.value {
      case .number(let text): found = text
      case .string(let text): found = "\"\(text)\""
      default: found = "not a number"
      }
      throw ImportError(
        line: version.line,
        "weigh JSON version \(found) is not one this weigh reads (it reads version 1); "
          + "import the file with the weigh that wrote it")
    }
    if let node = document.value["settings"], !node.isNull {
      result.settings = try settings(node)
    }
    return result
  }

  /// The weight of an entry, or why it is refused.
  static func weight(_ entry: ImportJSONReader.RawRecord) throws(ImportRejection) -> ImportedWeight
  {
    var sources = ImportJSONRepeatedText()
    return try weight(entry, sources: &sources)
  }

  /// ``weight(_:)``, the entry's source made once for a run of entries of one source.
  static func weight(_ entry: ImportJSONReader.RawRecord, sources: inout ImportJSONRepeatedText)
    throws(ImportRejection) -> ImportedWeight
  {
    if let weight = exported(entry, sources: &sources) { return weight }
    return try throughFields(entry)
  }

  /// The weight of any entry through `WeighEntryFields`, each member's text made as a string.
  static func throughFields(_ entry: ImportJSONReader.RawRecord) throws(ImportRejection)
    -> ImportedWeight
  {
    func text(_ index: Int) throws(ImportRejection) -> String {
      guard entry.values[index] != nil else {
        throw ImportRejection(line: entry.line, reason: "no \"\(keys[index])\" in this entry")
      }
      guard let text = entry.text(index) else {
        throw ImportRejection(
          line: entry.line, reason: "\"\(keys[index])\" must be a string or number")
      }
      return text
    }
    func optional(_ index: Int) throws(ImportRejection) -> String? {
      switch entry.values[index] {
      case nil, .null?: return nil
      default: return try text(index)
      }
    }
    return try WeighEntryFields(
      id: text(0), instant: text(1), kilograms: text(2), origin: text(3), source: text(4),
      note: optional(5), revision: text(6), healthUUID: optional(7),
      pushedUUID: optional(8), pushedRevision: optional(9)
    ).weight(line: entry.line)
  }

  /// The weight of an entry whose members are written as `export` writes them (`"id": 12`,
  /// `"instant": "2026-01-03T06:30:00Z"`, `"kilograms": 71.25`, `"origin": "import"`,
  /// `"revision": 1`, strings or `null` for the others), read from the document's bytes; nil
  /// for any other entry, which `WeighEntryFields` reads (giving the same weight, or the
  /// reason it is refused: `ReaderFastPathTests`).
  static func exported(_ entry: ImportJSONReader.RawRecord) -> ImportedWeight? {
    var sources = ImportJSONRepeatedText()
    return exported(entry, sources: &sources)
  }

  /// ``exported(_:)``, the entry's source made once for a run of entries of one source.
  static func exported(
    _ entry: ImportJSONReader.RawRecord, sources: inout ImportJSONRepeatedText
  ) -> ImportedWeight? {
    guard entry.isObject, case .number(let id)? = entry.values[0],
      let number = WeighCSVImporter.whole(id, digits: 18),
      case .ascii(let instantText)? = entry.values[1],
      let instant = UTCInstantText.parse(instantText),
      StoredValueRule.wholeInstant.contains(instant),
      case .number(let weight)? = entry.values[2], weight.count <= DecimalText.maximumLength,
      let kilograms = DecimalText.plainDecimal(weight), Measure.mass.contains(kilograms),
      case .ascii(let originText)? = entry.values[3],
      let origin = origin(originText),
      let source = source(entry, sources: &sources),
      case .number(let revisionText)? = entry.values[6],
      let revision = WeighCSVImporter.whole(revisionText, digits: 9),
      ValueLimits.revision.contains(revision)
    else { return nil }
    // A member that may be `null` or absent, else a string (nil: neither).
    func optionalString(_ index: Int) -> String?? {
      switch entry.values[index] {
      case nil, .null?: return .some(nil)
      case .ascii, .string: return entry.string(index)
      default: return nil
      }
    }
    guard let note = optionalString(5), let healthUUID = optionalString(7),
      let pushedUUID = optionalString(8),
      healthUUID.map(StoredText.isUUID) != false, pushedUUID.map(StoredText.isUUID) != false
    else { return nil }
    var pushedRevision: Int32?
    switch entry.values[9] {
    case nil, .null?: break
    case .number(let text)?:
      guard let value = WeighCSVImporter.whole(text, digits: 9),
        ValueLimits.revision.contains(value)
      else { return nil }
      pushedRevision = Int32(value)  // checked: inside ValueLimits.revision
    default: return nil
    }
    return ImportedWeight(
      weighEntry: number, instant: instant, kilograms: kilograms, origin: origin,
      source: source, note: note,
      revision: Int32(revision),  // checked: inside ValueLimits.revision
      healthUUID: healthUUID, pushedUUID: pushedUUID, pushedRevision: pushedRevision,
      line: entry.line)
  }

  /// The entry's `source` when it is a string (``ImportJSONReader/RawRecord/string(_:)``),
  /// an ASCII one made once for a run of entries that hold the same bytes.
  private static func source(
    _ entry: ImportJSONReader.RawRecord, sources: inout ImportJSONRepeatedText
  ) -> String? {
    switch entry.values[4] {
    case .ascii(let bytes)?: sources.text(bytes)
    case .string(let slot)?: entry.decoded[slot]
    default: nil
    }
  }

  /// `WeighCSVImporter.origin` of a string's bytes: each name is six bytes, compared as
  /// bytes (the generic `elementsEqual` with a `String`'s UTF-8 took 342 instructions an
  /// entry: wjson9, callgrind, 100,000 entries).
  static func origin(_ bytes: UnsafeBufferPointer<UInt8>) -> Origin? {
    guard bytes.count == 6 else { return nil }
    switch (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]) {
    case (0x69, 0x6D, 0x70, 0x6F, 0x72, 0x74): return .import
    case (0x6D, 0x61, 0x6E, 0x75, 0x61, 0x6C): return .manual
    case (0x68, 0x65, 0x61, 0x6C, 0x74, 0x68): return .health
    default: return nil
    }
  }

  /// The members an entry is read for, in the order of `Record.values`.
  static let keys = [
    "id", "instant", "kilograms", "origin", "source", "note", "revision", "healthUUID",
    "pushedUUID", "pushedRevision",
  ]

  /// The `settings` object: `unit` (kg, lb or st) and optional `height_m`, `goal_kg` and
  /// `pre_pregnancy_kg`, each in the range `set` accepts.
  ///
  /// - Throws: `ImportError` at the member that is wrong: the file is refused as a whole.
  static func settings(_ node: JSONNode) throws -> ExportedSettings {
    guard case .object = node.value else {
      throw ImportError(
        line: node.line, "\"settings\" must be an object such as {\"unit\": \"kg\"}")
    }
    guard let unitNode = node.value["unit"], let word = unitNode.string,
      let unit = DisplayUnit(rawValue: word)
    else {
      throw ImportError(
        line: node.value["unit"]?.line ?? node.line,
        "\"settings\" needs \"unit\": \"kg\", \"lb\" or \"st\"")
    }
    func number(_ key: String, _ limits: ClosedRange<Double>, _ what: String) throws -> Double? {
      guard let member = node.value[key], !member.isNull else { return nil }
      guard let value = member.number, limits.contains(value), value > 0 else {
        throw ImportError(line: member.line, "\"\(key)\" in \"settings\" must be \(what)")
      }
      return value
    }
    return ExportedSettings(
      unit: unit,
      height: try number("height_m", ValueLimits.heightMeters, "a height from 0.3 to 3 (metres)"),
      goal: try number("goal_kg", ValueLimits.kilograms, "a weight above 0 and at most 1000 (kg)"),
      prePregnancy: try number(
        "pre_pregnancy_kg", ValueLimits.kilograms, "a weight above 0 and at most 1000 (kg)"))
  }
}
