import HealthSim

/// What a test does to the device and its user: the app's life, lock, permissions, other
/// apps writing. Changes that wake observers are delivered at the next `settle()` or
/// `advance(by:)` (at once on a device that delivers automatically).
extension SimulatedDevice {
  /// A permission decision the simulated user makes in Settings.
  public enum Permission: Sendable {
    case notDetermined, denied, authorized

    var simulated: AuthorizationDecision {
      switch self {
      case .notDetermined: return .notDetermined
      case .denied: return .denied
      case .authorized: return .authorized
      }
    }
  }

  /// What an observer looks like from outside the app.
  public enum ObserverStatus: String, Sendable {
    /// No observer query and no background delivery.
    case off
    /// Registered and delivering.
    case active
    /// A delivery's completion was missed; a retry is scheduled.
    case retrying
    /// Background delivery stopped after too many missed completions.
    case stopped
  }

  /// Locks the device: queries fail with errorDatabaseInaccessible; saves succeed and
  /// are merged at unlock; nothing is delivered.
  public func lockDevice() { control { $0.lockDevice() } }

  /// Unlocks the device and delivers what is pending.
  public func unlockDevice() async {
    control { $0.unlockDevice() }
    await settle()
  }

  /// The user launches the app: a new process, no queries, in the foreground.
  public func launchApp() { control { $0.launchApp() } }

  /// The user force-quits the app: nothing is delivered until the next launch.
  public func quitApp() { control { $0.quitApp() } }

  /// The app goes to the background.
  public func moveAppToBackground() async {
    control { $0.backgroundApp() }
    await settle()
  }

  /// The app comes to the foreground (from the background observers fire once).
  public func bringAppToForeground() async {
    control { $0.foregroundApp() }
    await settle()
  }

  /// Makes Health available or not (`HKHealthStore.isHealthDataAvailable()`).
  public func setHealthDataAvailable(_ available: Bool) {
    control { $0.setHealthDataAvailable(available) }
  }

  /// How the simulated user answers the next authorization prompts (Allow by default).
  public func answerPrompts(_ answer: PromptAnswer) {
    control { engine in
      var settings = engine.settings
      settings.promptAnswer = answer == .allow ? .authorized : .denied
      engine.settings = settings
    }
  }

  /// The user changes read permission in Settings. A denied read is hidden from the app,
  /// as on a device: its queries return only what it wrote itself.
  public func setReadPermission(_ permission: Permission, for types: Set<HKSampleType>) {
    control { engine in
      engine.setReadAuthorization(permission.simulated, for: types.compactMap(\.simulated))
    }
  }

  /// The user changes write permission in Settings.
  public func setWritePermission(_ permission: Permission, for types: Set<HKSampleType>) {
    control { engine in
      engine.setWriteAuthorization(permission.simulated, for: types.compactMap(\.simulated))
    }
  }

  /// Another app (or the Health app) saves samples, as `name` with `bundleIdentifier`.
  public func saveAsOtherApp(
    _ samples: [HKSample], name: String, bundleIdentifier: String, version: String? = nil
  ) throws {
    let revision = SourceRevision(
      source: HealthSource(name: name, bundleIdentifier: bundleIdentifier), version: version)
    let simulated = try samples.map { sample throws(HKError) in try sample.simulatedSample() }
    do {
      try call { engine throws(HealthError) in try engine.save(simulated, as: revision) }
    } catch {
      throw HKError(error)
    }
    afterChange()
  }

  /// The owner of samples (another app, or the user in the Health app) deletes them.
  @discardableResult
  public func deleteAsOwner(_ uuids: [UUID]) throws -> Int {
    let count: Int
    do {
      count = try call { engine throws(HealthError) in try engine.deleteAsOwner(uuids) }
    } catch {
      throw HKError(error)
    }
    afterChange()
    return count
  }

  /// Health drops deleted-object records (all, or those older than `age` seconds): an app
  /// whose anchor is older then misses those deletions, as on a device.
  @discardableResult
  public func purgeDeletedObjects(olderThan age: TimeInterval? = nil) -> Int {
    control { $0.purgeDeletedObjects(olderThan: age) }
  }

  /// How many times the app's observer handlers ran for a type.
  public func deliveries(for type: HKSampleType) -> Int {
    guard let simulated = type.simulated else { return 0 }
    return control { $0.deliveries(for: simulated) }
  }

  /// The app's observer for a type, as Health sees it.
  public func observerStatus(for type: HKSampleType) -> ObserverStatus {
    guard let simulated = type.simulated else { return .off }
    return control { ObserverStatus(rawValue: $0.observerState(for: simulated).rawValue) ?? .off }
  }

  /// The first retry's delay after a missed completion (60 s), doubling each time.
  public var retryBackoff: TimeInterval {
    get { control { $0.settings.retryBackoff } }
    set {
      control { engine in
        var settings = engine.settings
        settings.retryBackoff = newValue
        engine.settings = settings
      }
    }
  }

  private func control<T>(_ body: (HealthStore) -> T) -> T {
    mutex.lock()
    defer { mutex.unlock() }
    return body(engine)
  }
}
