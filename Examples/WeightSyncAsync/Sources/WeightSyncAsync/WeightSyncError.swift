import Foundation

/// The app's own errors.
public enum WeightSyncError: Error, Equatable, LocalizedError {
  /// Health is not available on this device (an iPad, or restricted).
  case healthDataUnavailable
  /// No manual entry has this id.
  case noManualEntry(UUID)

  public var errorDescription: String? {
    switch self {
    case .healthDataUnavailable:
      return "Health is not available on this device"
    case .noManualEntry(let id):
      return "no manual entry with id \(id.uuidString); only typed-in entries can be changed"
    }
  }
}
