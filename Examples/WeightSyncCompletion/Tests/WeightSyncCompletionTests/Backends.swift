import Foundation
import WeightSyncCompletion

/// A server that answers a moment later, from another queue, and remembers what it got.
final class RecordingBackend: WeightBackend, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [WeightEntry] = []

  var uploaded: [WeightEntry] { lock.withLock { received } }

  func upload(_ entries: [WeightEntry], completion: @escaping @Sendable ((any Error)?) -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
      lock.withLock { received += entries }
      completion(nil)
    }
  }
}

/// A server that does not answer until the test opens it: the upload hangs, and with it
/// the observer's completion.
final class StalledBackend: WeightBackend, @unchecked Sendable {
  private let lock = NSLock()
  private var waiting: [@Sendable ((any Error)?) -> Void] = []
  private var attempts = 0

  /// How many uploads were started.
  var uploadAttempts: Int { lock.withLock { attempts } }

  func upload(_ entries: [WeightEntry], completion: @escaping @Sendable ((any Error)?) -> Void) {
    lock.withLock {
      attempts += 1
      waiting.append(completion)
    }
  }

  /// Answers every waiting upload with success.
  func answerAll() {
    let answers = lock.withLock { () -> [@Sendable ((any Error)?) -> Void] in
      defer { waiting = [] }
      return waiting
    }
    for answer in answers { answer(nil) }
  }
}
