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
  /// Renpho `Time of Measurement,Weight(kg),…`.
  case renphoCSV = "renpho csv"
  /// Google Fit Takeout daily metrics (`Date,…,Average weight (kg),…`).
  case googleFitCSV = "google-fit csv"
  /// Samsung Health `com.samsung.health.weight.*.csv`.
  case samsungHealthCSV = "samsung-health csv"
  /// Garmin Connect weight export (`Time,Weight,Change,BMI,…`).
  case garminCSV = "garmin csv"
  /// Libra `#date;weight;weight trend;…`.
  case libraCSV = "libra csv"
  /// MyFitnessPal `Date,Body Fat %,Weight`.
  case myFitnessPalCSV = "myfitnesspal csv"
  /// Fitbit's account export (`Body`, `Date,Weight,BMI,Fat`, then other sections).
  case fitbitCSV = "fitbit csv"
  /// A CSV of the user's own, read with `import … as csv date … weight … unit …`.
  case genericCSV = "generic csv"
}
