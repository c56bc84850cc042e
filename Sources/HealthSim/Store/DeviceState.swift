/// The device and the app's life cycle as Health sees them.
public struct DeviceState: Codable, Hashable, Sendable {
  /// Whether Health data is available on this device (isHealthDataAvailable).
  public var isHealthDataAvailable = true
  /// Whether the device is locked with a passcode (protected data unavailable).
  public var isLocked = false
  /// Whether the app's process is running; false after a force-quit until the next launch.
  public var isAppRunning = true
  /// Whether the app is in the foreground (only meaningful while running).
  public var isAppInForeground = true

  /// A new device: Health available, unlocked, the app launched and in the foreground.
  public init() {}
}
