/// The version `weigh --version` prints.
public enum WeighVersion {
  public static let current = "0.1.0"
}
