import Foundation
import HealthSim
import Testing

@Suite("Authorization (Z1–Z13)")
struct AuthorizationTests {
  @Test("Z1: with Health unavailable every call fails with code 1")
  func z1Unavailable() throws {
    let store = makeStore()
    store.setHealthDataAvailable(false)
    #expect(!store.isHealthDataAvailable())
    let code = HealthError.Code.errorHealthDataUnavailable
    #expect { try store.save([weight(70)]) } throws: { ($0 as? HealthError)?.code == code }
    #expect { try store.anchoredResult(type: .bodyMass, anchor: nil) } throws: {
      ($0 as? HealthError)?.code == code
    }
    #expect { try store.enableBackgroundDelivery(for: .bodyMass, frequency: .hourly) } throws: {
      ($0 as? HealthError)?.code == code
    }
    #expect(code.rawValue == 1)
  }

  @Test("Z2/Z13: requestAuthorization reports the prompt finished, never re-asks decided types")
  func z2RequestAuthorization() throws {
    let store = makeStore()
    store.setWriteAuthorization(.notDetermined)
    store.setReadAuthorization(.notDetermined)
    var settings = store.settings
    settings.promptAnswer = .denied
    store.settings = settings
    #expect(
      store.requestStatusForAuthorization(toShare: [.bodyMass], read: [.bodyMass]) == .shouldRequest
    )
    #expect(try store.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass]))
    #expect(store.authorizationStatus(for: .bodyMass) == .sharingDenied)
    settings.promptAnswer = .authorized
    store.settings = settings
    #expect(try store.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass]))
    #expect(store.authorizationStatus(for: .bodyMass) == .sharingDenied)
    #expect(
      store.requestStatusForAuthorization(toShare: [.bodyMass], read: [.bodyMass]) == .unnecessary)
    store.setWriteAuthorization(.authorized, for: [.bodyMass])
    #expect(store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
  }

  @Test("Z4/Z5: status shows write only; a read-only request reports sharingDenied (knob)")
  func z4WriteStatusOnly() throws {
    let store = makeStore()
    store.setReadAuthorization(.denied)
    #expect(store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
    store.setWriteAuthorization(.notDetermined)
    #expect(store.authorizationStatus(for: .bodyMass) == .notDetermined)
    store.setReadAuthorization(.notDetermined)
    try store.requestAuthorization(toShare: [], read: [.stepCount])
    #expect(store.authorizationStatus(for: .stepCount) == .sharingDenied)
    #expect(AuthorizationStatus.sharingAuthorized.rawValue == 2)
  }

  @Test("Z6/Z7: read denied, queries succeed and return only the app's own samples")
  func z6HiddenReadDenial() throws {
    let store = makeStore()
    try scaleWrites(store, 80)
    let own = try store.save([weight(70, at: 1)])[0]
    store.setReadAuthorization(.denied)
    let result = try store.anchoredResult(type: .bodyMass, anchor: nil)
    #expect(result.samples == [own])
    #expect(try store.samples(of: .bodyMass) == [own])
    let stats = try store.statistics(of: .bodyMass, options: .discreteAverage)
    #expect(stats.averageQuantity()?.value == 70)
  }

  @Test("Z8: limited read hides other sources' samples that start before the date")
  func z8ReadNotBefore() throws {
    let store = makeStore()
    try scaleWrites(store, 80, at: 0)
    try scaleWrites(store, 81, at: 100)
    store.setReadNotBefore(at(50), for: .bodyMass)
    #expect(try store.samples(of: .bodyMass).map(\.value) == [81])
  }

  @Test("Z9: saving with write not determined fails with 5, with write denied with 4")
  func z9SaveAuthorization() throws {
    let store = makeStore()
    store.setWriteAuthorization(.notDetermined)
    #expect { try store.save([weight(70)]) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationNotDetermined
    }
    store.setWriteAuthorization(.denied)
    #expect { try store.save([weight(70)]) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationDenied
    }
    #expect(store.liveSampleCount(of: .bodyMass) == 0)
  }

  @Test("Z10: a query with read not determined fails with 5 (knob: own samples only)")
  func z10QueryBeforeAuthorization() throws {
    let store = makeStore()
    try scaleWrites(store, 80)
    store.setReadAuthorization(.notDetermined)
    #expect { try store.anchoredResult(type: .bodyMass, anchor: nil) } throws: {
      ($0 as? HealthError)?.code == .errorAuthorizationNotDetermined
    }
    var settings = store.settings
    settings.undeterminedReadQuery = .ownSamplesOnly
    store.settings = settings
    #expect(try store.anchoredResult(type: .bodyMass, anchor: nil).changes.isEmpty)
  }

  @Test("Z11: error codes carry HealthKit's raw values and domain")
  func z11Codes() {
    #expect(HealthError.Code.errorInvalidArgument.rawValue == 3)
    #expect(HealthError.Code.errorAuthorizationDenied.rawValue == 4)
    #expect(HealthError.Code.errorAuthorizationNotDetermined.rawValue == 5)
    #expect(HealthError.Code.errorDatabaseInaccessible.rawValue == 6)
    #expect(HealthError.domain == "com.apple.healthkit")
  }

  @Test("a new store starts allowed, unlocked, available, foreground, observer off")
  func newStoreDefaults() throws {
    let store = makeStore()
    #expect(store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
    #expect(store.smallState.device == DeviceState())
    #expect(store.observerState() == .off)
    #expect(try store.save([weight(70)]).count == 1)
  }
}
