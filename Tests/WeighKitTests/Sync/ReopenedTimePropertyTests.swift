import Foundation
import PropertyBased
import Testing

@testable import WeighKit

/// Health over time on a directory store reopened for every command, as separate
/// `weigh --clock … -e …` runs are, against one session that stays open: simulated devices,
/// the observer and its deliveries, app life-cycle events, faults, deletions and syncs print
/// the same either way, before and after compaction. The reopened session starts at the
/// clock the long session had reached, as a user passing `--clock` would.
@Suite struct ReopenedTimePropertyTests {
  /// A script line for a code.
  static func line(_ code: Int) -> String {
    switch code % 14 {
    case 0: return ["observe on", "observe on hourly", "observe off"][code % 3]
    case 1: return ["app background", "app foreground", "app launch", "app quit"][code % 4]
    case 2: return ["app lock", "app unlock"][code % 2]
    case 3:
      return "simulate scale every \([6, 12, 24][code % 3])h start \(60 + code % 30)kg noise 0.2kg"
    case 4: return code % 2 == 0 ? "simulate stop all" : "simulate list"
    case 5, 6, 7: return "advance \(code % 40 + 1)h"
    case 8: return "health add \(8000 + code)steps at \(code % 10 + 10):00 source Phone"
    case 9: return code % 2 == 0 ? "try health delete last" : "health purge"
    // `fault` lasts for the run (docs/language.md), so it is not among these lines.
    case 10: return "health add \(60 + code % 20)kg at 07:30 source Withings"
    case 11: return code % 2 == 0 ? "sync" : "sync status"
    case 12: return code % 2 == 0 ? "health list weight" : "list"
    default: return ReopenedStoreTests.compact
    }
  }

  @Test("time, devices and observers print the same in one session and reopened for each command")
  func reopenedEqualsLongOverTime() async {
    await propertyCheck(count: 20, input: Gen.int(in: 0...999).array(of: 1...35)) { codes in
      failingOnThrow {
        let directory = ReopenedStoreTests.temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = try ReopenedStoreTests.LongSession()
        for line in codes.map(Self.line) + ["advance 2d", "sync", "health list", "list"] {
          let clock = long.session.now
          let expected = line == ReopenedStoreTests.compact ? "" : long.run(line)
          let reopened = try ReopenedStoreTests().runReopened(line, on: directory, at: clock)
          #expect(reopened == expected, "\(line)")
        }
      }
    }
  }
}
