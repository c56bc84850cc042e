import Foundation

/// The app's own server, which receives the weights imported from Health. The observer's
/// completion waits for the upload, so a background wake covers the whole sync.
public protocol WeightBackend: Sendable {
  /// Uploads entries; calls `completion` with nil on success, on any thread.
  func upload(_ entries: [WeightEntry], completion: @escaping @Sendable ((any Error)?) -> Void)
}
