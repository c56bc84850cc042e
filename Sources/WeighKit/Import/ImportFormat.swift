/// The file formats weigh imports.
public enum ImportFormat: String, CaseIterable, Sendable {
  /// Apple's `export.zip` from "Export All Health Data".
  case appleHealthZip = "apple-health zip"
  /// Apple's `export.xml`, unzipped.
  case appleHealthXML = "apple-health xml"
  /// Withings Health Mate `weight.csv`.
  case withingsCSV = "withings csv"
  /// openScale CSV, 3.x (`DATE,TIME,…,WEIGHT`) or 2.x (`"dateTime",…,"weight"`).
  case openScaleCSV = "openscale csv"
  /// Fitbit `weight-YYYY-MM-DD.json`.
  case fitbitJSON = "fitbit json"
  /// weigh's own CSV (`export FILE as csv`).
  case weighCSV = "weigh csv"
  /// weigh's own JSON (`export FILE as json`).
  case weighJSON = "weigh json"
}
