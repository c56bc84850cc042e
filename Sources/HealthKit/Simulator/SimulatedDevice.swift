import HealthSim

/// A simulated iPhone with Health on it, for the code under test and the test that drives
/// it. `HKHealthStore()` uses the device bound to the current task (`run(_:)`), else the
/// shared default device: empty, Health available, unlocked, the app in the foreground,
/// every permission prompt answered Allow, on the wall clock.
///
/// A device built by a test starts on a virtual clock that moves only when the test says
/// (`advance(by:)`); scheduled readings, observer deliveries and retries run then, in
/// order, and the device waits for the app's own work started by a handler before it
/// moves on. Devices share nothing, so parallel tests each use their own.
public final class SimulatedDevice: @unchecked Sendable {
  /// How the simulated user answers an authorization prompt.
  public enum PromptAnswer: Sendable {
    case allow, deny
  }

  let mutex = NSRecursiveLock()
  let engine: HealthStore
  private let followsWallClock: Bool
  private var activity: UInt64 = 0
  private var eventLog: [String] = []
  /// The app's long-running queries, executed; stopped ones are dropped when counted.
  private var longRunning: [HealthQuery] = []
  private var userCharacteristics = UserCharacteristics()

  /// What the user entered about themselves.
  var characteristics: UserCharacteristics { mutex.withLock { userCharacteristics } }

  func updateCharacteristics(_ change: (inout UserCharacteristics) -> Void) {
    mutex.withLock { change(&userCharacteristics) }
  }

  /// Whether observer deliveries run by themselves after each save or delete, as on a
  /// phone. On by default on the shared device; a test device delivers when the test
  /// calls `settle()` or `advance(by:)`.
  public var deliversAutomatically: Bool {
    get { mutex.withLock { automatic } }
    set { mutex.withLock { automatic = newValue } }
  }
  private var automatic: Bool
  private var wakeAt: Date?

  /// How long (real time) the device waits for the app's work after a handler returned
  /// without calling its completion, with no HealthKit call from the app meanwhile,
  /// before it counts the completion as missed.
  public var completionGrace: TimeInterval = 0.02

  /// How long (real time) the device waits instead, with no HealthKit call from the app,
  /// while a Task the app started from a handler (`Task { … }`) is still running: a busy
  /// machine may not run that Task within `completionGrace`.
  public var taskGrace: TimeInterval = 2

  /// A device with an empty Health store on a virtual clock that starts at `clock`.
  /// The app is `bundleIdentifier`; `seed` makes UUIDs and simulated noise repeatable.
  public init(
    clock: Date = Date(timeIntervalSinceReferenceDate: 815_000_000), seed: UInt64 = 0,
    appName: String = "App", bundleIdentifier: String = "com.example.app",
    appVersion: String = "1.0"
  ) {
    let app = SourceRevision(
      source: HealthSource(name: appName, bundleIdentifier: bundleIdentifier),
      version: appVersion, productType: "iPhone15,2", operatingSystemVersion: "18.0.0")
    engine = HealthStore(app: app, seed: seed, clock: clock)
    followsWallClock = false
    automatic = false
  }

  private init(wallClock: Void) {
    let app = SourceRevision(
      source: HealthSource(
        name: Bundle.main.executableURL?.lastPathComponent ?? "App",
        bundleIdentifier: Bundle.main.bundleIdentifier ?? "com.example.app"),
      version: "1.0", productType: "iPhone15,2", operatingSystemVersion: "18.0.0")
    engine = HealthStore(
      // checked: a seed, any bits do
      app: app, seed: UInt64(truncatingIfNeeded: Int(Date().timeIntervalSince1970 * 1000)),
      clock: Date())
    followsWallClock = true
    automatic = true
  }

  /// The device `HKHealthStore()` uses when no device is bound to the task.
  public static let shared = SimulatedDevice(wallClock: ())

  @TaskLocal static var bound: SimulatedDevice?

  /// The device of the current task: the bound one, else the shared one.
  public static var current: SimulatedDevice { bound ?? shared }

  /// Runs `body` with this device bound to the task, so `HKHealthStore()` and new
  /// objects inside it (and in Tasks it starts) use this device.
  public func run<T>(_ body: () async throws -> T) async rethrows -> T {
    try await Self.$bound.withValue(self, operation: body)
  }

  /// Runs synchronous `body` with this device bound to the task.
  public func run<T>(_ body: () throws -> T) rethrows -> T {
    try Self.$bound.withValue(self, operation: body)
  }

  // MARK: Engine access

  /// Runs `body` on the engine with the device's lock held, as one app call.
  func call<T, E: Error>(_ body: (HealthStore) throws(E) -> T) throws(E) -> T {
    mutex.lock()
    defer { mutex.unlock() }
    activity &+= 1
    if followsWallClock { catchUpWithWallClock() }
    return try body(engine)
  }

  /// After a save or delete: on an automatic device, run the deliveries it caused.
  func afterChange() {
    guard deliversAutomatically else { return }
    let device = self
    Task.detached { await device.settle() }
  }

  /// The shared device's clock follows the wall clock. Events that fell due run in a
  /// background task, as a phone runs them, never inside the app's call.
  private func catchUpWithWallClock() {
    let now = Date()
    guard now > engine.now else { return }
    engine.setClock(now)
    if let next = engine.smallState.scheduler.next, next.date <= now { afterChange() }
  }

  func record(_ events: [HealthEvent]) {
    eventLog += events.map(\.description)
  }

  /// Keeps an executed long-running query for `runningQueries`.
  func noteRunning(_ query: HealthQuery) { mutex.withLock { longRunning.append(query) } }

  /// How many of the app's queries may still call a handler: observer queries, and
  /// anchored and statistics-collection queries with update handlers, executed and not
  /// stopped (by the app, or by a force-quit or launch).
  public var runningQueries: Int {
    mutex.withLock {
      longRunning.removeAll { $0.isStopped }
      return longRunning.count
    }
  }

  /// A new object's UUID, from the device's seeded generator.
  func makeUUID() -> UUID { mutex.withLock { engine.makeUUID() } }

  /// The running app, as a revision.
  var app: SourceRevision { mutex.withLock { engine.app } }

  /// The engine itself, for tests that need HealthSim's full harness (`import HealthSim`).
  /// Call it only while no app code runs.
  public func withEngine<T>(_ body: (HealthStore) throws -> T) rethrows -> T {
    mutex.lock()
    defer { mutex.unlock() }
    return try body(engine)
  }

  // MARK: Time

  /// The device's clock: what `Date()` means to HealthKit on this device.
  public var now: Date { mutex.withLock { engine.now } }

  /// Moves the clock forward, running every reading, delivery and retry due on the way.
  public func advance(by seconds: TimeInterval) async {
    await advance(to: now.addingTimeInterval(seconds))
  }

  /// Moves the clock to `date`, running every reading, delivery and retry due by then in
  /// time order. After each observer delivery it waits for the handlers' completions (see
  /// `completionGrace` and `taskGrace`); one not called by then is a missed completion,
  /// with HealthKit's retry and backoff.
  public func advance(to date: Date) async {
    while let next = nextEvent(until: date) {
      mutex.withLock { record(next.step.events) }
      guard let pending = next.step.pending else { continue }
      await waitForCompletions(of: pending, while: next.watch)
      mutex.withLock { record(engine.finishDelivery(pending)) }
    }
    mutex.withLock { engine.finishAdvance(to: date) }
  }

  /// Runs what is due now: the deliveries that saves and deletes caused.
  public func settle() async {
    await advance(to: followsWallClock ? max(now, Date()) : now)
    if followsWallClock { scheduleWake() }
  }

  /// On the wall clock, wakes the device when its next event falls due (a retry, a
  /// simulated reading), as a phone would; one wake is pending at a time.
  private func scheduleWake() {
    let due: Date? = mutex.withLock {
      guard let next = engine.smallState.scheduler.next?.date, next > engine.now,
        wakeAt.map({ next < $0 }) ?? true
      else { return nil }
      wakeAt = next
      return next
    }
    guard let due else { return }
    let device = self
    Task.detached {
      let delay = max(0, due.timeIntervalSinceNow)
      // checked: clamped to a day
      try? await Task.sleep(nanoseconds: UInt64(min(delay, 86_400) * 1e9))
      device.mutex.withLock { if device.wakeAt == due { device.wakeAt = nil } }
      await device.settle()
    }
  }

  /// Waits for a delivery's completions. Idle time counts only across at least ten turns
  /// of this wait, each of which lets the app's Tasks run first: a machine too busy to run
  /// anything does not turn a completion into a missed one.
  private func waitForCompletions(of pending: PendingDelivery, while work: AppWorkWatch) async {
    var lastActivity = mutex.withLock { activity }
    var idleSince = Date()
    var idleTurns = 0
    var pause: UInt64 = 50_000
    while !pending.isComplete {
      await Task.yield()
      try? await Task.sleep(nanoseconds: pause)
      let current = mutex.withLock { activity }
      if current != lastActivity {
        lastActivity = current
        idleSince = Date()
        idleTurns = 0
        pause = 50_000
        continue
      }
      // Polls less often the longer the app is quiet, leaving the processors to its Tasks.
      pause = min(pause * 2, 2_000_000)
      idleTurns += 1
      let grace = work.isRunning ? max(taskGrace, completionGrace) : completionGrace
      if idleTurns >= 10, Date().timeIntervalSince(idleSince) > grace { return }
    }
  }

  /// What happened while the clock moved, one line per event (deliveries, retries,
  /// stops, simulated readings), in order.
  public var events: [String] { mutex.withLock { eventLog } }
}
