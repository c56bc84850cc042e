extension GlucoseSummary {
  /// `glucose`'s lines: count, mean, SD and CV; a table of bands; a table of ATTD targets.
  public func lines() -> [String] {
    guard count > 0, let mean else { return ["no glucose readings"] }
    let sd = standardDeviation.map { DisplayUnit.formatNumber($0, decimals: 1) + " mg/dL" } ?? "-"
    let cv = coefficientOfVariation.map { WeightText.percent($0) } ?? "-"
    var lines = TextTable.labelled([
      ("readings", String(count)),
      ("mean", DisplayUnit.formatNumber(mean, decimals: 1) + " mg/dL"),
      ("sd", sd),
      ("cv", cv),
    ])
    lines.append("")
    lines += TextTable.columns(
      header: ["band", "mg/dL", "readings", "share"],
      rows: GlucoseBand.allCases.map { band in
        [
          band.rawValue, band.rangeText, String(bandCounts[band] ?? 0),
          WeightText.percent(percent(band)),
        ]
      })
    lines.append("")
    lines += TextTable.columns(
      header: ["target", "value", "met"],
      rows: GlucoseTarget.allCases.map { target in
        let met = meets(target).map { $0 ? "yes" : "no" } ?? "-"
        return [target.label, value(of: target).map { WeightText.percent($0) } ?? "-", met]
      })
    return lines
  }

  /// The figure a target is judged on, in percent.
  public func value(of target: GlucoseTarget) -> Double? {
    switch target {
    case .timeInRange: timeInRange
    case .belowRange: timeBelowRange
    case .veryLow: percent(.veryLow)
    case .aboveRange: timeAboveRange
    case .veryHigh: percent(.veryHigh)
    case .variability: coefficientOfVariation
    }
  }
}
