import Foundation

// HealthKit's named unit constructors, grouped as its documentation groups them.

extension HKUnit {
  private static func make(
    _ root: RootUnit, _ prefix: HKMetricPrefix = .none, molarMass: Double? = nil
  ) -> [PoweredFactor] {
    [PoweredFactor(factor: UnitFactor(root, prefix: prefix, molarMass: molarMass), exponent: 1)]
  }

  // MARK: Mass

  /// Grams with a metric prefix (`kg` for `.kilo`).
  public class func gramUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.gram, prefix))
  }
  /// Grams (`g`).
  public class func gram() -> Self { Self(factors: make(.gram)) }
  /// Ounces (`oz`), 1/16 lb.
  public class func ounce() -> Self { Self(factors: make(.ounce)) }
  /// Pounds (`lb`), 0.45359237 kg.
  public class func pound() -> Self { Self(factors: make(.pound)) }
  /// Stones (`st`), 14 lb.
  public class func stone() -> Self { Self(factors: make(.stone)) }
  /// Moles with a metric prefix of a substance with the given molar mass (`mmol<180.16>`).
  public class func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double)
    -> Self
  {
    Self(factors: make(.mole, prefix, molarMass: gramsPerMole))
  }
  /// Moles of a substance with the given molar mass in grams per mole (`mol<180.16>`).
  public class func moleUnit(withMolarMass gramsPerMole: Double) -> Self {
    Self(factors: make(.mole, molarMass: gramsPerMole))
  }

  // MARK: Length

  /// Metres with a metric prefix (`cm` for `.centi`).
  public class func meterUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.meter, prefix))
  }
  /// Metres (`m`).
  public class func meter() -> Self { Self(factors: make(.meter)) }
  /// Inches (`in`), 0.0254 m.
  public class func inch() -> Self { Self(factors: make(.inch)) }
  /// Feet (`ft`), 0.3048 m.
  public class func foot() -> Self { Self(factors: make(.foot)) }
  /// Yards (`yd`), 0.9144 m.
  public class func yard() -> Self { Self(factors: make(.yard)) }
  /// Miles (`mi`), 1609.344 m.
  public class func mile() -> Self { Self(factors: make(.mile)) }

  // MARK: Volume

  /// Litres with a metric prefix (`mL` for `.milli`).
  public class func literUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.liter, prefix))
  }
  /// Litres (`L`).
  public class func liter() -> Self { Self(factors: make(.liter)) }
  /// US customary fluid ounces (`fl_oz_us`).
  public class func fluidOunceUS() -> Self { Self(factors: make(.fluidOunceUS)) }
  /// Imperial fluid ounces (`fl_oz_imp`).
  public class func fluidOunceImperial() -> Self { Self(factors: make(.fluidOunceImperial)) }
  /// US customary pints (`pt_us`).
  public class func pintUS() -> Self { Self(factors: make(.pintUS)) }
  /// Imperial pints (`pt_imp`).
  public class func pintImperial() -> Self { Self(factors: make(.pintImperial)) }
  /// US customary cups (`cup_us`).
  public class func cupUS() -> Self { Self(factors: make(.cupUS)) }
  /// Imperial cups (`cup_imp`).
  public class func cupImperial() -> Self { Self(factors: make(.cupImperial)) }

  // MARK: Pressure

  /// Pascals with a metric prefix (`kPa` for `.kilo`).
  public class func pascalUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.pascal, prefix))
  }
  /// Pascals (`Pa`).
  public class func pascal() -> Self { Self(factors: make(.pascal)) }
  /// Millimetres of mercury (`mmHg`), 133.322387415 Pa.
  public class func millimeterOfMercury() -> Self { Self(factors: make(.millimeterOfMercury)) }
  /// Centimetres of water (`cmAq`), 98.0665 Pa.
  public class func centimeterOfWater() -> Self { Self(factors: make(.centimeterOfWater)) }
  /// Standard atmospheres (`atm`), 101325 Pa.
  public class func atmosphere() -> Self { Self(factors: make(.atmosphere)) }
  /// A-weighted sound pressure level in decibels (`dBASPL`), relative to 20 µPa.
  public class func decibelAWeightedSoundPressureLevel() -> Self {
    Self(factors: make(.decibelAWeightedSoundPressureLevel))
  }
  /// Inches of mercury (`inHg`), 3386.38816 Pa.
  public class func inchesOfMercury() -> Self { Self(factors: make(.inchesOfMercury)) }

  // MARK: Time

  /// Seconds with a metric prefix (`ms` for `.milli`).
  public class func secondUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.second, prefix))
  }
  /// Seconds (`s`).
  public class func second() -> Self { Self(factors: make(.second)) }
  /// Minutes (`min`).
  public class func minute() -> Self { Self(factors: make(.minute)) }
  /// Hours (`hr`).
  public class func hour() -> Self { Self(factors: make(.hour)) }
  /// Days of 86400 s (`d`).
  public class func day() -> Self { Self(factors: make(.day)) }

  // MARK: Energy

  /// Joules with a metric prefix (`kJ` for `.kilo`).
  public class func jouleUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.joule, prefix))
  }
  /// Joules (`J`).
  public class func joule() -> Self { Self(factors: make(.joule)) }
  /// Kilocalories (`kcal`), 4184 J.
  public class func kilocalorie() -> Self { Self(factors: make(.kilocalorie)) }
  /// Small calories (`cal`), 4.184 J.
  public class func smallCalorie() -> Self { Self(factors: make(.smallCalorie)) }
  /// Large (food) calories (`Cal`), 4184 J.
  public class func largeCalorie() -> Self { Self(factors: make(.largeCalorie)) }
  /// Small calories (`cal`).
  @available(
    *, deprecated, message: "Use smallCalorie or largeCalorie, depending on which you mean"
  )
  public class func calorie() -> Self { Self(factors: make(.smallCalorie)) }

  // MARK: Temperature

  /// Degrees Celsius (`degC`).
  public class func degreeCelsius() -> Self { Self(factors: make(.degreeCelsius)) }
  /// Degrees Fahrenheit (`degF`).
  public class func degreeFahrenheit() -> Self { Self(factors: make(.degreeFahrenheit)) }
  /// Kelvin (`K`).
  public class func kelvin() -> Self { Self(factors: make(.kelvin)) }

  // MARK: Electrical conductance and potential

  /// Siemens with a metric prefix (`mcS` for `.micro`).
  public class func siemenUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.siemen, prefix))
  }
  /// Siemens (`S`).
  public class func siemen() -> Self { Self(factors: make(.siemen)) }
  /// Volts with a metric prefix (`mV` for `.milli`).
  public class func voltUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.volt, prefix))
  }
  /// Volts (`V`).
  public class func volt() -> Self { Self(factors: make(.volt)) }

  // MARK: Pharmacology, scalars, hearing

  /// International units (`IU`).
  public class func internationalUnit() -> Self { Self(factors: make(.internationalUnit)) }
  /// A count of things (`count`).
  public class func count() -> Self { Self(factors: make(.count)) }
  /// Percent (`%`); HealthKit stores percentages as fractions, 0.0 to 1.0.
  public class func percent() -> Self { Self(factors: make(.percent)) }
  /// Decibels of hearing level (`dBHL`).
  public class func decibelHearingLevel() -> Self { Self(factors: make(.decibelHearingLevel)) }

  // MARK: Frequency and power

  /// Hertz with a metric prefix (`kHz` for `.kilo`).
  public class func hertzUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.hertz, prefix))
  }
  /// Hertz (`Hz`).
  public class func hertz() -> Self { Self(factors: make(.hertz)) }
  /// Watts with a metric prefix (`kW` for `.kilo`).
  public class func wattUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.watt, prefix))
  }
  /// Watts (`W`).
  public class func watt() -> Self { Self(factors: make(.watt)) }

  // MARK: Optics and angles

  /// Diopters (`D`).
  public class func diopter() -> Self { Self(factors: make(.diopter)) }
  /// Prism diopters (`pD`).
  public class func prismDiopter() -> Self { Self(factors: make(.prismDiopter)) }
  /// Radians with a metric prefix (`mrad` for `.milli`).
  public class func radianAngleUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.radianAngle, prefix))
  }
  /// Radians (`rad`).
  public class func radianAngle() -> Self { Self(factors: make(.radianAngle)) }
  /// Degrees of angle (`deg`), π/180 rad.
  public class func degreeAngle() -> Self { Self(factors: make(.degreeAngle)) }

  // MARK: Illuminance and effort

  /// Lux with a metric prefix (`klx` for `.kilo`).
  public class func luxUnit(with prefix: HKMetricPrefix) -> Self {
    Self(factors: make(.lux, prefix))
  }
  /// Lux (`lx`).
  public class func lux() -> Self { Self(factors: make(.lux)) }
  /// Apple's workout effort score (`appleEffortScore`).
  public class func appleEffortScore() -> Self { Self(factors: make(.appleEffortScore)) }
}
