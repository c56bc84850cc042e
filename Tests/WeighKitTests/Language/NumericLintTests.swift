// The numeric lint: no integer conversion may trap on a value from outside.
//
// `Int(x)`, `Int64(x)`, `UInt8(x)` … trap when `x` is a Double that is not finite or does
// not fit, and when `x` is a wider integer that does not fit. A text scan cannot know the
// type of `x`, so the rule is about how a conversion is written, not what it converts:
//
// Outside Sources/WeighKit/Model (the numeric module, which holds the checked helpers and is
// reviewed as a whole), every call of an integer type's initializer — `Int(`, `Int8(` …
// `Int64(`, `UInt(` … `UInt64(` — must either
//   1. name a non-trapping initializer by its first label: `exactly:`, `clamping:`,
//      `truncatingIfNeeded:`, `bitPattern:`, `ascii:`, or the Model helper `rounding:`
//      (`Int(rounding:clampedTo:)`); or
//   2. carry an audited comment, `// checked: <why it cannot trap>`, at the end of the line or
//      alone on the line just above it (where swift-format moves a long one), such as
//      "parses text, nil when out of range", "Int to Int64 widens", or "inside ValueLimits".
//   3. or be in a file that starts with `// checked-file: <why>`, for byte-level code with no
//      floating point at all (the CRC-32 tables), where a comment per line would bury the code.
// Conversions of Dates go through `Instant.seconds(of:)`, of durations through
// `TimeSpan(checkedSeconds:)`, of decimal text through `DecimalText`; the one exception the
// rule makes is the audited comment, so a new unchecked conversion fails CI where it appears.

import Foundation
import Testing

@Suite struct NumericLintTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let numericModule = "Sources/WeighKit/Model/"
  static let allowedLabels = [
    "exactly", "clamping", "truncatingIfNeeded", "bitPattern", "ascii", "rounding",
  ]
  static let auditMark = "// checked:"
  static let fileAuditMark = "// checked-file: "
  // An integer type's name not preceded by a letter, digit, `_` or `.`, then `(` and the
  // first argument's label, if any.
  static let pattern = try! NSRegularExpression(
    pattern: #"(?<![A-Za-z0-9_.])U?Int(8|16|32|64)?\(\s*(?:([A-Za-z]+)\s*:)?"#)

  /// Whether `line` carries an audit comment with a reason.
  static func isAudited(_ line: Substring) -> Bool {
    guard let mark = line.range(of: auditMark) else { return false }
    return !line[mark.upperBound...].trimmingCharacters(in: .whitespaces).isEmpty
  }

  /// Each integer-initializer call on `line` that the rule does not allow, by column;
  /// `previous` is the line before, which may hold the audit comment on its own.
  static func violations(in line: String, previous: String = "") -> [Int] {
    let code = line.trimmingCharacters(in: .whitespaces)
    if code.hasPrefix("//") { return [] }
    if isAudited(line[...]) { return [] }
    let above = previous.trimmingCharacters(in: .whitespaces)
    if above.hasPrefix(auditMark), isAudited(above[...]) { return [] }
    let text = line as NSString
    var columns: [Int] = []
    for match in pattern.matches(in: line, range: NSRange(location: 0, length: text.length)) {
      let label = match.range(at: 2)
      if label.location != NSNotFound, allowedLabels.contains(text.substring(with: label)) {
        continue
      }
      columns.append(match.range.location + 1)
    }
    return columns
  }

  @Test func ruleSeesWhatItShould() {
    #expect(Self.violations(in: "  let x = Int64(value.rounded())") == [11])
    #expect(Self.violations(in: "  let x = UInt8(rest / divisor)").count == 1)
    #expect(Self.violations(in: "  let x = Int(exactly: value)").isEmpty)
    #expect(Self.violations(in: "  let x = UInt8(ascii: \"a\")").isEmpty)
    #expect(Self.violations(in: "  let x = Int(text)  // checked: parses text").isEmpty)
    #expect(Self.violations(in: "  let x = Int(text)  // checked:").count == 1)
    #expect(Self.violations(in: "  /// Int64(x) in a comment").isEmpty)
    #expect(Self.violations(in: "  let x = BigInt(y) + Point(x)").isEmpty)
    #expect(Self.violations(in: "  let a = [Int](repeating: 0, count: 3)").isEmpty)
    #expect(Self.violations(in: "  f(Int32(a), Int(exactly: b))").count == 1)
    #expect(Self.violations(in: "  f(Int32(a))", previous: "  // checked: a flag").isEmpty)
    #expect(Self.violations(in: "  f(Int32(a))", previous: "  // a flag").count == 1)
  }

  @Test func noUncheckedIntegerConversionOutsideTheNumericModule() throws {
    let sources = Self.root.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count > 100)
    var found: [String] = []
    for file in files {
      let relative = String(file.path.dropFirst(Self.root.path.count + 1))
      if relative.hasPrefix(Self.numericModule) { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      if text.hasPrefix(Self.fileAuditMark) { continue }
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (number, line) in lines.enumerated() {
        let previous = number > 0 ? String(lines[number - 1]) : ""
        for column in Self.violations(in: String(line), previous: previous) {
          found.append(
            "\(relative):\(number + 1):\(column): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(
      found.isEmpty,
      """
      integer conversions without a range check (use Int(exactly:), Int(clamping:), a Model \
      helper such as Instant.seconds(of:) or TimeSpan(checkedSeconds:), or add \
      `// checked: <why>`):
      \(found.sorted().joined(separator: "\n"))
      """)
  }
}
