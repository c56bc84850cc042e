import Foundation
import Testing
import WeighKit

/// The project's golden corpus (Tests/golden), run in-process exactly as `weigh test` runs it.
@Suite struct GoldenTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("golden").path

  static let scripts: [String] = {
    let found = (try? GoldenRunner().scripts(in: [folder])) ?? []
    return found.map { String($0.dropFirst(folder.count + 1)) }
  }()

  @Test func corpusIsNotEmpty() {
    #expect(Self.scripts.count > 10)
  }

  @Test(arguments: scripts)
  func golden(_ name: String) {
    let outcome = GoldenRunner().check(scriptAt: Self.folder + "/" + name, update: false)
    if case .failed(let diff) = outcome {
      Issue.record("\(name) differs from its .out file:\n\(diff)")
    }
  }
}
