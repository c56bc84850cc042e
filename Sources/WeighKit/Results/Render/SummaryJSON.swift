/// `summary json`: the one object ViiRaa's web view reads (docs/language.md and
/// docs/output.md), written with the one ``JSONWriter``.
enum SummaryJSON {
  /// One line: keys in ``HealthSummary/keys`` order, a key left out when there is no data
  /// for it, `", "` and `": "` between members as the contract has always been printed;
  /// numbers unrounded (the weight in pounds), whole ones without a fraction, timestamps as
  /// Unix seconds.
  static func line(of summary: HealthSummary) -> String {
    let values: [Double?] = [
      summary.glucose, summary.glucoseInstant.map(Double.init),
      summary.weightKilograms.map(MassUnit.lb.fromKilograms),
      summary.weightInstant.map(Double.init), summary.steps, summary.activeEnergyKilocalories,
      summary.exerciseMinutes,
    ]
    var writer = JSONWriter()
    writer.raw("{")
    var first = true
    for (key, value) in zip(HealthSummary.keys, values) {
      guard let value, value.isFinite else { continue }
      if !first { writer.raw(", ") }
      first = false
      writer.write(key)
      writer.raw(": ")
      // A whole number below 2^53 (a timestamp, a step count) is written without ".0".
      if value.rounded() == value, let whole = Int64(exactly: value), whole.magnitude < 1 << 53 {
        writer.write(Int(whole))  // checked: below 2^53 in magnitude
      } else {
        writer.write(value)
      }
    }
    writer.raw("}")
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}
