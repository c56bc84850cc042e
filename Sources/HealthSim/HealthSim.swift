/// The simulated HealthKit. See docs/healthsim.md.
public enum HealthSimVersion {
  /// The version of the simulator's behaviour.
  public static let current = "0.1.0"
}
