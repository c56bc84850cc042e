import Foundation

/// The app's own server, which receives the weights imported from Health. A sync ends when
/// the upload does, and the observer's completion waits for the sync.
public protocol WeightBackend: Sendable {
  /// Uploads entries.
  func upload(_ entries: [WeightEntry]) async throws
}
