import Foundation
import HealthSim
import Testing

/// Sync logic written only against the protocol, as an app would write it.
func importWeights(from store: some HealthStoreProtocol, after anchor: QueryAnchor?) throws
  -> ([HealthSample], QueryAnchor?)
{
  var result: ([HealthSample], QueryAnchor?) = ([], anchor)
  let query = AnchoredQuery(type: .bodyMass, anchor: anchor, limit: 0) {
    _, samples, _, newAnchor, _ in
    result = (samples ?? [], newAnchor)
  }
  try store.execute(query)
  return result
}

@Suite("HealthStoreProtocol")
struct ProtocolTests {
  @Test("sync code written against the protocol runs on the simulator")
  func protocolSync() throws {
    let health = makeStore()
    var saved = false
    health.save([weight(70)]) { success, _ in saved = success }
    #expect(saved)
    var failure: HealthError?
    health.delete([try scaleWrites(health, 80, at: 1)]) { _, error in failure = error }
    #expect(failure?.code == .errorAuthorizationDenied)
    let (samples, anchor) = try importWeights(from: health, after: nil)
    #expect(samples.map(\.value) == [70, 80])
    #expect(try importWeights(from: health, after: anchor).0.isEmpty)
  }

  @Test("the example in docs/healthsim.md works")
  func docExample() throws {
    let health = HealthStore(seed: 1, clock: Date(timeIntervalSince1970: 1_767_225_600))
    let scale = SourceRevision(
      source: HealthSource(name: "Withings", bundleIdentifier: "com.withings"))
    var anchor: QueryAnchor?
    var imported: [UUID] = []
    let observer = ObserverQuery(sampleType: .bodyMass) { _, completion, _ in
      let page = try! health.anchoredResult(type: .bodyMass, anchor: anchor, limit: 500)
      imported += page.samples.compactMap(\.uuid)
      anchor = page.newAnchor
      completion()
    }
    try health.execute(observer)
    try health.enableBackgroundDelivery(for: .bodyMass, frequency: .hourly)
    health.backgroundApp()
    try health.save([HealthSample(type: .bodyMass, value: 70.2, start: health.now)], as: scale)
    let events = health.advance(by: 3600)
    #expect(imported.count == 1 && events.count == 1)
  }
}
