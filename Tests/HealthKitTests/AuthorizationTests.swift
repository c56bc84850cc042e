import HealthKit
import Testing

/// Permissions as a device shows them: write status visible, read denial hidden (Z1–Z13).
@Suite struct AuthorizationTests {
  let weight = Make.weightType
  let steps = Make.stepType

  func requestStatus(_ store: HKHealthStore, share: Set<HKSampleType>, read: Set<HKObjectType>)
    async throws -> HKAuthorizationRequestStatus
  {
    try await withCheckedThrowingContinuation { continuation in
      store.getRequestStatusForAuthorization(toShare: share, read: read) { status, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: status)
        }
      }
    }
  }

  @Test func writeStatusFollowsThePromptAnswers() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      device.setWritePermission(.notDetermined, for: [weight, steps])
      device.setReadPermission(.notDetermined, for: [weight, steps])
      #expect(store.authorizationStatus(for: weight) == .notDetermined)
      #expect(try await requestStatus(store, share: [weight], read: [weight]) == .shouldRequest)
      // The user allows body mass, then denies steps at a second prompt.
      try await store.requestAuthorization(toShare: [weight], read: [weight])
      #expect(store.authorizationStatus(for: weight) == .sharingAuthorized)
      #expect(try await requestStatus(store, share: [weight], read: [weight]) == .unnecessary)
      #expect(try await requestStatus(store, share: [weight, steps], read: []) == .shouldRequest)
      device.answerPrompts(.deny)
      try await store.requestAuthorization(toShare: [steps], read: [steps])
      #expect(store.authorizationStatus(for: steps) == .sharingDenied)
      // A decided type is not asked again: weight stays allowed.
      try await store.requestAuthorization(toShare: [weight, steps], read: [])
      #expect(store.authorizationStatus(for: weight) == .sharingAuthorized)
      #expect(
        try await requestStatus(store, share: [weight, steps], read: [steps]) == .unnecessary)
    }
  }

  @Test func theCompletionFormReportsSuccessEvenWhenDenied() async throws {
    let device = SimulatedDevice()
    device.run {
      let store = HKHealthStore()
      device.setWritePermission(.notDetermined, for: [weight])
      device.answerPrompts(.deny)
      let result = Locked<(Bool, Bool)?>(nil)
      store.requestAuthorization(toShare: [weight], read: [weight]) { success, error in
        result.update { $0 = (success, error == nil) }
      }
      #expect(result.value?.0 == true)
      #expect(result.value?.1 == true)
      #expect(store.authorizationStatus(for: weight) == .sharingDenied)
    }
  }

  @Test func savingWithWriteDeniedFailsWithCodeFour() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      device.setWritePermission(.denied, for: [weight])
      #expect(store.authorizationStatus(for: weight) == .sharingDenied)
      var caught = false
      do {
        try await store.save(Make.weight(70, at: device.now))
      } catch HKError.errorAuthorizationDenied {
        caught = true
      }
      #expect(caught)
      do {
        try await store.save(Make.weight(70, at: device.now))
        Issue.record("the save succeeded")
      } catch {
        #expect((error as? HKError)?.code == .errorAuthorizationDenied)
        let nsError = error as NSError
        #expect(nsError.code == 4)
        #expect(nsError.domain == HKErrorDomain)
        #expect(nsError.localizedDescription.contains("denied"))
      }
      let completion = Locked<(Bool, Int?)?>(nil)
      store.save(Make.weight(70, at: device.now)) { success, error in
        completion.update { $0 = (success, (error as NSError?)?.code) }
      }
      #expect(completion.value?.0 == false)
      #expect(completion.value?.1 == 4)
      #expect(try await store.samples(of: weight).isEmpty)
    }
  }

  @Test func savingWithWriteNotDeterminedFailsWithCodeFive() async throws {
    let device = SimulatedDevice()
    await device.run {
      let store = HKHealthStore()
      device.setWritePermission(.notDetermined, for: [weight])
      await #expect(throws: HKError(.errorAuthorizationNotDetermined)) {
        try await store.save(Make.weight(70, at: device.now))
      }
    }
  }

  @Test func readDenialIsHiddenQueriesReturnOnlyTheAppsOwnSamples() async throws {
    let device = SimulatedDevice()
    try await device.run {
      let store = HKHealthStore()
      let mine = Make.weight(70, at: device.now)
      try await store.save(mine)
      try device.saveAsOtherApp(
        [Make.weight(80, at: device.now), Make.weight(81, at: device.now)], name: "Scale",
        bundleIdentifier: "com.example.scale")
      #expect(try await store.samples(of: weight).count == 3)
      device.setReadPermission(.denied, for: [weight])
      // Queries succeed as if Health had nothing else.
      #expect(try await store.samples(of: weight).map(\.uuid) == [mine.uuid])
      let batch = try await store.changes(of: weight, after: nil)
      #expect(batch.samples.map(\.uuid) == [mine.uuid])
      let statistics = try await store.statistics(of: weight, options: .discreteAverage)
      #expect(statistics.averageQuantity()?.doubleValue(for: Make.kilogram) == 70)
      // Write status says nothing about read.
      #expect(store.authorizationStatus(for: weight) == .sharingAuthorized)
      device.setReadPermission(.authorized, for: [weight])
      #expect(try await store.samples(of: weight).count == 3)
    }
  }
}
