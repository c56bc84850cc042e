import Foundation

/// A smart scale's model: `start + drift · elapsed + noise · N(0,1)` kilograms.
public struct SimulatedScale: Codable, Hashable, Sendable {
  /// The weight at the simulation's start, in kg.
  public var startKilograms: Double
  /// The drift in kg per day (negative for loss).
  public var driftKilogramsPerDay: Double
  /// The standard deviation of the Gaussian noise, in kg.
  public var noiseKilograms: Double

  /// A scale model.
  public init(startKilograms: Double, driftKilogramsPerDay: Double = 0, noiseKilograms: Double = 0)
  {
    self.startKilograms = startKilograms
    self.driftKilogramsPerDay = driftKilogramsPerDay
    self.noiseKilograms = noiseKilograms
  }
}

/// A continuous glucose monitor's model: `start + drift · elapsed + noise · N(0,1)` mg/dL.
public struct SimulatedGlucoseMonitor: Codable, Hashable, Sendable {
  /// The level at the start, in mg/dL.
  public var startMilligramsPerDeciliter: Double
  /// The drift in mg/dL per day.
  public var driftPerDay: Double
  /// The standard deviation of the noise, in mg/dL.
  public var noise: Double

  /// A CGM model.
  public init(startMilligramsPerDeciliter: Double, driftPerDay: Double = 0, noise: Double = 0) {
    self.startMilligramsPerDeciliter = startMilligramsPerDeciliter
    self.driftPerDay = driftPerDay
    self.noise = noise
  }
}

/// A phone counting steps: each reading covers the interval since the previous one.
public struct SimulatedStepCounter: Codable, Hashable, Sendable {
  /// The mean steps per reading.
  public var meanSteps: Double
  /// The standard deviation per reading.
  public var noise: Double

  /// A step-counter model; the noise defaults to a quarter of the mean.
  public init(meanSteps: Double, noise: Double? = nil) {
    self.meanSteps = meanSteps
    self.noise = noise ?? meanSteps / 4
  }
}
