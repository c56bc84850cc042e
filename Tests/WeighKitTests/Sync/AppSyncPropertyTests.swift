import Foundation
import HealthSim
import PropertyBased
import Testing

@testable import WeighKit

/// The app's sync against random histories of Health changes (issue: HealthSim and sync).
@Suite struct AppSyncPropertyTests {
  /// Runs one script line; failures of `try` lines are expected and ignored.
  func run(_ session: Session, _ line: String) {
    _ = session.run(script: line, display: "property", directory: ".")
  }

  func foreignLive(_ session: Session) throws -> Set<String> {
    let health = try session.health()
    return Set(
      health.allSamples(of: .bodyMass)
        .filter { $0.source?.bundleIdentifier != HealthLink.app.source.bundleIdentifier }
        .map { $0.uuid!.uuidString })
  }

  func healthEntries(_ session: Session) throws -> Set<String> {
    Set(try session.entries().filter { $0.origin == .health }.compactMap(\.healthUUID))
  }

  @Test(
    "the app's Health entries equal Health's live samples except purged-before-seen deletions; incremental anchors never go back; sync all adds nothing"
  )
  func syncMirrorsHealth() async {
    await propertyCheck(count: 60, input: Gen.int(in: 0...799).array(of: 1...40)) { codes in
      failingOnThrow {
        let session = try Session(options: .golden, output: CapturedOutput())
        // Deletions the app cannot see any more: deleted, then purged before the next sync.
        var unseenDeletions = Set<String>()
        var missable = Set<String>()
        var anchor: Int64 = 0
        for code in codes {
          let weight = 60 + Double(code % 40) / 2
          switch code / 100 {
          case 0, 1:
            run(session, "health add \(weight)kg at 0\(code % 8):00 source S\(code % 3)")
          case 2:
            let before = try foreignLive(session)
            run(session, "try health delete last")
            unseenDeletions.formUnion(before.subtracting(try foreignLive(session)))
          case 3:
            let before = try foreignLive(session)
            run(
              session,
              "health add \(weight)kg at 07:00 source R sync-id r-\(code % 4) version \(code % 5 + 1)"
            )
            unseenDeletions.formUnion(before.subtracting(try foreignLive(session)))
          case 4:
            run(session, "health purge")
            missable.formUnion(unseenDeletions)
          case 5:
            run(session, "log \(weight)kg at 06:30")
            run(session, "sync push")
          default:
            run(session, "sync")
            unseenDeletions = []
            #expect(session.app.anchor! >= anchor)
            anchor = session.app.anchor!
          }
        }
        run(session, "sync")
        let live = try foreignLive(session)
        let mirrored = try healthEntries(session)
        #expect(live.isSubset(of: mirrored))
        #expect(mirrored.subtracting(live).isSubset(of: missable))
        let count = try session.entries().count
        run(session, "sync all")
        #expect(try session.entries().count <= count)
        #expect(try healthEntries(session).isSuperset(of: live))
        #expect(session.memory.output.hasPrefix("imported 0,"))
      }
    }
  }

  @Test("paging gives the same entries whatever the page limit")
  func pagingIsInvisible() throws {
    // 1,234 samples: more than two pages of 500.
    let session = try Session(options: .golden, output: CapturedOutput())
    run(
      session,
      "clock 2025-01-01T00:00Z\nsimulate scale every 1h start 70kg noise 0.5kg\nadvance 1234h\nsimulate stop all\nsync"
    )
    #expect(session.memory.output.hasPrefix("imported 1234,"))
    #expect(try healthEntries(session) == foreignLive(session))
  }
}
