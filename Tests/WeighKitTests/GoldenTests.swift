import Foundation
import Testing
import WeighKit

/// The golden corpus (Tests/golden) and the scenario scripts (scripts/scenarios), run
/// in-process exactly as `weigh test` runs them.
@Suite struct GoldenTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
  static let folders = ["Tests/golden", "scripts/scenarios"]

  static let scripts: [String] = folders.flatMap { folder in
    let path = root + "/" + folder
    return ((try? GoldenRunner().scripts(in: [path])) ?? []).map {
      String($0.dropFirst(root.count + 1))
    }
  }

  @Test func corpusIsNotEmpty() {
    #expect(Self.scripts.filter { $0.hasPrefix("Tests/golden") }.count > 30)
    #expect(Self.scripts.filter { $0.hasPrefix("scripts/scenarios") }.count >= 8)
  }

  @Test(arguments: scripts)
  func golden(_ name: String) {
    let outcome = GoldenRunner().check(scriptAt: Self.root + "/" + name, update: false)
    if case .failed(let diff) = outcome {
      Issue.record("\(name) differs from its .out file:\n\(diff)")
    }
  }
}
