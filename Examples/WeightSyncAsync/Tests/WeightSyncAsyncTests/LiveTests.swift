import Foundation
import HealthKit
import Testing

@testable import WeightSyncAsync

@Suite struct LiveTests {
  @Test func onScreenTheJournalFollowsHealthUntilTheTaskIsCancelled() async throws {
    let app = try AppHarness()
    try await app.device.run {
      let sync = try app.launch()
      try app.scaleSaves([80.0])
      let (changes, reported) = AsyncStream.makeStream(of: ImportSummary.self)
      let following = Task { try await sync.followChanges { reported.yield($0) } }
      var next = changes.makeAsyncIterator()
      #expect(await next.next()?.added.map(\.kilograms) == [80.0])

      await app.device.advance(by: 86_400)
      let samples = try app.scaleSaves([80.3])
      await app.device.settle()
      #expect(await next.next()?.added.map(\.kilograms) == [80.3])

      try app.device.deleteAsOwner([samples[0].uuid])
      await app.device.settle()
      #expect(await next.next()?.removed == 1)
      #expect(try await app.savedJournal().map(\.kilograms) == [80.0])

      // Leaving the screen cancels the task: the query stops and the journal stays.
      following.cancel()
      try await following.value
      try app.scaleSaves([80.6])
      await app.device.settle()
      #expect(try await app.savedJournal().map(\.kilograms) == [80.0])
    }
  }
}
