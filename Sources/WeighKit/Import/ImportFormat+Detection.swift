import Foundation

extension ImportFormat {
  /// The word a user writes after `as` for this format (`apple-health`, `csv`, `json`).
  public var family: ImportFamily {
    switch self {
    case .appleHealthZip, .appleHealthXML: .appleHealth
    case .withingsCSV, .openScaleCSV, .weighCSV, .renphoCSV, .googleFitCSV, .samsungHealthCSV,
      .garminCSV, .libraCSV, .myFitnessPalCSV, .fitbitCSV, .genericCSV:
      .csv
    case .fitbitJSON, .weighJSON: .json
    }
  }

  /// The format of a file from its name and first bytes (4 KiB is plenty); nil when none fits.
  ///
  /// Content decides; the name only breaks the tie for an empty JSON array (`weight-….json`).
  public static func detect(fileName: String, firstBytes: [UInt8]) -> ImportFormat? {
    if firstBytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .appleHealthZip }
    var start = firstBytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < firstBytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(firstBytes[start]) {
      start += 1
    }
    let head = String(decoding: firstBytes[start...], as: UTF8.self)
    if head.hasPrefix("<") {
      return head.contains("<HealthData") || head.contains("<!DOCTYPE HealthData")
        ? .appleHealthXML : nil
    }
    if head.hasPrefix("{") {
      return head.contains("\"format\"") && head.contains("\"weigh\"") ? .weighJSON : nil
    }
    if head.hasPrefix("[") {
      let compact = head.filter { !$0.isWhitespace }
      if compact.hasPrefix("[{"), head.contains("\"weight\"") { return .fitbitJSON }
      if compact.hasPrefix("[]"), fileName.lowercased().hasPrefix("weight") { return .fitbitJSON }
      return nil
    }
    if LibraCSVImporter.matches(head: head) { return .libraCSV }
    if FitbitCSVImporter.matches(head: head) { return .fitbitCSV }
    let firstLine =
      head.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .first.map(String.init) ?? ""
    guard let header = try? CSVReader.rows(Array(firstLine.utf8)).first else { return nil }
    // A header quoted whole (`CSVRow.unwrapped`): the readers that read their columns through
    // `CSVWeightColumns` read the row inside it.
    if let inner = header.unwrapped() {
      if GoogleFitCSVImporter.matches(header: inner) { return .googleFitCSV }
      if WithingsCSVImporter.matches(header: inner) { return .withingsCSV }
      if MyFitnessPalCSVImporter.matches(header: inner) { return .myFitnessPalCSV }
      if RenphoCSVImporter.matches(header: inner) { return .renphoCSV }
      return GenericCSVImporter.matches(header: inner) ? .genericCSV : nil
    }
    if WeighCSVImporter.matches(header: header) { return .weighCSV }
    // Google Fit before Withings: a Takeout that writes `Average weight (kg)` second
    // (`Date,Average weight (kg),Max weight (kg),…`, as a real Takeout of 2018 does) also
    // has Withings' shape, a Date and a weight with its unit in brackets.
    if GoogleFitCSVImporter.matches(header: header) { return .googleFitCSV }
    if WithingsCSVImporter.matches(header: header) { return .withingsCSV }
    if MyFitnessPalCSVImporter.matches(header: header) { return .myFitnessPalCSV }
    // openScale writes DATE (3.x) or dateTime (2.x), never Date: a Date header that no
    // vendor claimed is a CSV of the user's own.
    if header[0]?.trimmingCharacters(in: .whitespaces) != "Date",
      OpenScaleCSVImporter.matches(firstRow: header)
    {
      return .openScaleCSV
    }
    if SamsungHealthCSVImporter.matches(firstRow: header) { return .samsungHealthCSV }
    if RenphoCSVImporter.matches(header: header) { return .renphoCSV }
    if GarminWeightCSVImporter.matches(header: header) { return .garminCSV }
    if let row = try? CSVReader.rows(
      Array(firstLine.utf8), separator: GenericCSVImporter.delimiter(Array(firstLine.utf8), .init())
    ).first, GenericCSVImporter.matches(header: row) {
      return .genericCSV
    }
    return nil
  }

  /// Whether `firstBytes` begin the clinical-document copy that Apple's export holds beside
  /// `export.xml` (`export_cda.xml`, HL7 CDA: `<ClinicalDocument`, seen in public
  /// repositories' exports): not read, but named in the refusal with the file to import.
  public static func isHealthCDA(firstBytes: [UInt8]) -> Bool {
    let head = String(decoding: firstBytes.prefix(4096), as: UTF8.self)
    return head.hasPrefix("<?xml") && head.contains("<ClinicalDocument")
  }

  /// The format of the file at `url`, from its name and first 4 KiB.
  public static func detect(url: URL) throws -> ImportFormat? {
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw ImportError("cannot open \(url.path); check the path")
    }
    defer { try? handle.close() }
    let head = try handle.read(upToCount: 4096) ?? Data()
    return detect(fileName: url.lastPathComponent, firstBytes: Array(head))
  }
}

/// Imports weights from any supported file.
public enum WeightImporter {
  /// Reads the weights of `url` in `format` (detected from name and content when nil).
  ///
  /// - Parameters:
  ///   - zone: the zone of local times in vendor files (Apple's dates carry offsets).
  ///   - unit: the unit of formats that do not name theirs (openScale 3.x, Fitbit).
  /// - Throws: `ImportError` when the format is unknown or the file is not well-formed;
  ///   nothing is imported then.
  public static func importWeights(
    from url: URL, format: ImportFormat? = nil, zone: ZonedClock, unit: MassUnit? = nil,
    csv: GenericCSVOptions = GenericCSVOptions()
  ) throws -> WeightImportResult {
    guard let format = try format ?? ImportFormat.detect(url: url) else {
      throw ImportError(
        "cannot tell the format of \(url.lastPathComponent); expected an Apple Health export, "
          + "Withings weight.csv, openScale CSV, Fitbit weight JSON or weigh's own CSV/JSON")
    }
    switch format {
    case .appleHealthZip, .appleHealthXML:
      return try AppleHealthWeightImporter.importWeights(from: url)
    default:
      break
    }
    // CSV files are read in chunks; JSON documents whole.
    return try importWeights(.file(url), format: format, zone: zone, unit: unit, csv: csv)
  }

  /// Reads the weights of `bytes` in `format`, which must not be an Apple Health format
  /// (those are read from their file).
  static func importWeights(
    _ bytes: [UInt8], format: ImportFormat, zone: ZonedClock, unit: MassUnit?,
    csv: GenericCSVOptions
  ) throws -> WeightImportResult {
    try importWeights(.bytes(bytes), format: format, zone: zone, unit: unit, csv: csv)
  }

  /// Reads the weights of `input` in `format`, which must not be an Apple Health format.
  static func importWeights(
    _ input: ImportInput, format: ImportFormat, zone: ZonedClock, unit: MassUnit?,
    csv: GenericCSVOptions
  ) throws -> WeightImportResult {
    switch format {
    case .withingsCSV: return try WithingsCSVImporter.importWeights(input, zone: zone)
    case .openScaleCSV:
      return try OpenScaleCSVImporter.importWeights(input, zone: zone, unit: unit)
    case .fitbitJSON:
      return try FitbitJSONImporter.importWeights(input, zone: zone, unit: unit)
    case .weighCSV: return try WeighCSVImporter.importWeights(input)
    case .weighJSON: return try WeighJSONImporter.importWeights(input)
    case .renphoCSV: return try RenphoCSVImporter.importWeights(input, zone: zone)
    case .googleFitCSV: return try GoogleFitCSVImporter.importWeights(input, zone: zone)
    case .samsungHealthCSV: return try SamsungHealthCSVImporter.importWeights(input)
    case .garminCSV: return try GarminWeightCSVImporter.importWeights(input, zone: zone)
    case .libraCSV: return try LibraCSVImporter.importWeights(input, zone: zone)
    case .myFitnessPalCSV:
      guard let unit else {
        throw ImportError(
          "MyFitnessPal's Date,Body Fat %,Weight export does not name its unit; add unit kg or unit lb"
        )
      }
      return try MyFitnessPalCSVImporter.importWeights(input, zone: zone, unit: unit)
    case .fitbitCSV:
      guard let unit = csv.unit ?? unit else {
        throw ImportError(
          "Fitbit's account export does not name its unit (its weights are in the account's); add unit kg, unit lb or unit st"
        )
      }
      return try FitbitCSVImporter.importWeights(
        input, zone: zone, unit: unit, format: csv.format)
    case .genericCSV:
      var options = csv
      options.unit = options.unit ?? unit
      return try GenericCSVImporter.importWeights(input, zone: zone, options: options)
    case .appleHealthZip, .appleHealthXML:
      throw ImportError("an Apple Health export is read from its file; import it by name")
    }
  }
}
