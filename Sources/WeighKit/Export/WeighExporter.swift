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
  /// The file's text.
  public static func text(_ entries: [Entry], as format: WeighExportFormat) -> String {
    switch format {
    case .csv: WeighCSVExporter.csv(entries)
    case .json: WeighJSONExporter.json(entries)
    }
  }

  /// Writes `entries` to `url` in `format` (from the file name when nil), atomically.
  ///
  /// - Throws: `ImportError` naming the path when the file cannot be written.
  public static func export(_ entries: [Entry], to url: URL, as format: WeighExportFormat? = nil)
    throws
  {
    let chosen = format ?? WeighExportFormat(fileName: url.lastPathComponent)
    do throws(FileWriteError) {
      try AtomicFileWriter().write(Array(text(entries, as: chosen).utf8), to: url.path)
    } catch {
      throw ImportError("cannot write \(url.path): \(error.reason)")
    }
  }
}
