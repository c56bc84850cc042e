import Foundation

/// Runs golden tests: every `*.wcfg` (but `_*.wcfg` fragments) below the given paths in a fresh in-memory session
/// (SessionOptions.golden), compared with the sibling `.out` file.
public struct GoldenRunner {
  /// The outcome of one script.
  public enum Outcome: Equatable, Sendable {
    case passed
    /// The output differs; a unified diff from expected to actual.
    case failed(diff: String)
    /// `--update` wrote a new `.out`.
    case updated
  }

  public init() {}

  /// The scripts below `paths` (files or folders), sorted.
  public func scripts(in paths: [String]) throws(Diagnostic) -> [String] {
    var found: [String] = []
    let files = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Diagnostic("cannot read \(path): no such file or folder", kind: .unreadableInput)
      }
      if !isDirectory.boolValue {
        found.append(path)
        continue
      }
      let enumerator = files.enumerator(atPath: path)
      while let relative = enumerator?.nextObject() as? String {
        // Scripts named _*.wcfg are fragments for `include`, not tests.
        let name = (relative as NSString).lastPathComponent
        if name.hasSuffix(".wcfg"), !name.hasPrefix("_") {
          found.append((path as NSString).appendingPathComponent(relative))
        }
      }
    }
    return found.sorted()
  }

  /// What the script at `path` prints, stdout and stderr in the order written.
  public func output(ofScriptAt path: String) -> String {
    let captured = CapturedOutput()
    let directory = (path as NSString).deletingLastPathComponent
    let display = (path as NSString).lastPathComponent
    do throws(Diagnostic) {
      let text = try ScriptFile.read(path, shownAs: display)
      let session = try Session(options: .golden, output: captured)
      session.run(script: text, display: display, directory: directory.isEmpty ? "." : directory)
      session.close()
    } catch {
      captured.write(DiagnosticRenderer().render(error), to: .standardError)
    }
    // Files the script made are removed, so the next run starts from the same files (an
    // export then says the same whether or not an earlier run left its file behind).
    for file in captured.createdFiles { unlink(file) }
    return captured.text
  }

  /// Runs one script and compares (or, with `update`, records) its output.
  public func check(scriptAt path: String, update: Bool) -> Outcome {
    let actual = output(ofScriptAt: path)
    let expectedPath = (path as NSString).deletingPathExtension + ".out"
    let expected = try? String(contentsOfFile: expectedPath, encoding: .utf8)
    if expected == actual { return .passed }
    if update {
      do throws(FileWriteError) {
        try AtomicFileWriter().write(Array(actual.utf8), to: expectedPath)
      } catch {
        return .failed(
          diff:
            "cannot write \((expectedPath as NSString).lastPathComponent): \(error.reason); nothing was written\n"
        )
      }
      return .updated
    }
    guard let expected else {
      return .failed(
        diff:
          "no \((expectedPath as NSString).lastPathComponent) yet; run weigh test --update to record it\n"
      )
    }
    return .failed(
      diff: UnifiedDiff.render(from: expected, to: actual, names: (expectedPath, "actual")))
  }
}

/// A unified diff of two texts, by lines.
public enum UnifiedDiff {
  /// `--- a`, `+++ b`, then hunks with three lines of context.
  public static func render(from old: String, to new: String, names: (String, String)) -> String {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Align the two with the standard library's diff, then walk both in step.
    let difference = b.difference(from: a)
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    var rows: [(Character, String, Int, Int)] = []  // kind, text, line in a, line in b
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, removed.contains(i) {
        rows.append(("-", a[i], i, j))
        i += 1
      } else if j < b.count, inserted.contains(j) {
        rows.append(("+", b[j], i, j))
        j += 1
      } else {
        rows.append((" ", i < a.count ? a[i] : "", i, j))
        i += 1
        j += 1
      }
    }
    var output = "--- \(names.0)\n+++ \(names.1)\n"
    var index = 0
    while index < rows.count {
      guard rows[index].0 != " " else {
        index += 1
        continue
      }
      let start = max(0, index - 3)
      var end = index
      while end < rows.count {
        if rows[end].0 != " " {
          end += 1
          continue
        }
        let nextChange = rows[end...].firstIndex { $0.0 != " " }
        if let nextChange, nextChange - end <= 6 {
          end = nextChange
        } else {
          end = min(rows.count, end + 3)
          break
        }
      }
      let hunk = rows[start..<end]
      let oldCount = hunk.filter { $0.0 != "+" }.count
      let newCount = hunk.filter { $0.0 != "-" }.count
      output += "@@ -\(hunk.first!.2 + 1),\(oldCount) +\(hunk.first!.3 + 1),\(newCount) @@\n"
      for row in hunk { output += "\(row.0)\(row.1)\n" }
      index = end
    }
    return output
  }
}
