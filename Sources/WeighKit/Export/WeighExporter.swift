import Foundation

/// The formats of `export FILE [as csv|json]`.
public enum WeighExportFormat: String, CaseIterable, Sendable {
  case csv
  case json

  /// The format a file name asks for (`.json` gives JSON, anything else CSV).
  public init(fileName: String) {
    self = fileName.lowercased().hasSuffix(".json") ? .json : .csv
  }
}

/// Writes the app's entries to a file that `import` reads back losslessly.
public enum WeighExporter {
  /// The file's text; JSON carries `settings` too (CSV has no place for them).
  public static func text(
    _ entries: [Entry], as format: WeighExportFormat, settings: ExportedSettings? = nil
  ) -> String {
    switch format {
    case .csv: WeighCSVExporter.csv(entries)
    case .json: WeighJSONExporter.json(entries, settings: settings)
    }
  }
}
