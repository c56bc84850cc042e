import Foundation
import Testing
import WeighKit

/// Replays the fuzzing corpora through the same entry points the libFuzzer targets call
/// (`FuzzTargets.run`), in the ordinary build: every input that once crashed weigh
/// (Tests/fuzz-corpus/TARGET/) and every seed (Fuzz/corpus/TARGET/). A crash here fails
/// the whole test run, which is the point.
///
/// Tests/fuzz-corpus/pending/TARGET/ holds crash inputs whose fix has not landed yet; they
/// are skipped here and move up one folder with their fix.
@Suite struct FuzzCorpusTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The files of `folder` (relative to the repository), by name.
  static func files(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }

  static let targets = FuzzTargets.Target.allCases.map(\.rawValue)

  @Test func everyFolderNamesATarget() {
    for folder in ["Tests/fuzz-corpus", "Tests/fuzz-corpus/pending", "Fuzz/corpus"] {
      for name in Self.files(in: folder) where name != "pending" && name != "README.md" {
        #expect(Self.targets.contains(name), "\(folder)/\(name) is not a fuzz target")
      }
    }
  }

  @Test func everyTargetHasSeeds() {
    for target in Self.targets {
      #expect(!Self.files(in: "Fuzz/corpus/" + target).isEmpty, "no seeds for \(target)")
    }
  }

  /// Crash inputs found by fuzzing, fixed since: each must run to the end.
  @Test(arguments: FuzzTargets.Target.allCases)
  func regressions(_ target: FuzzTargets.Target) throws {
    try replay(folder: "Tests/fuzz-corpus/" + target.rawValue, target)
  }

  /// The seeds, which exercise each target's ordinary paths.
  @Test(arguments: FuzzTargets.Target.allCases)
  func seeds(_ target: FuzzTargets.Target) throws {
    try replay(folder: "Fuzz/corpus/" + target.rawValue, target)
  }

  private func replay(folder: String, _ target: FuzzTargets.Target) throws {
    for name in Self.files(in: folder) {
      let bytes = Array(
        try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + folder + "/" + name)))
      // A skipped input would pass without testing anything.
      #expect(FuzzTargets.run(target, bytes), "\(folder)/\(name) was skipped by the target")
    }
  }
}
