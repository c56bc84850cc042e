import CWeighXMLScan
import Foundation

/// A streaming reader of Apple Health `export.xml`, written over raw bytes.
///
/// Feed it chunks of any size; it hands each complete `Record`, `Workout`, `Correlation`,
/// `Me`, `ExportDate` and `ActivitySummary` to the handler with the line it starts on, and
/// keeps only the unfinished tail of the last chunk, so memory does not grow with the file.
/// It checks that the file is well-formed (tags balanced, attributes quoted, entities known)
/// and skips the internal DTD without reading it, because Apple's has been broken since iOS 16.
/// Foundation's XMLParser is not used: on Linux it crashes on Apple's DTD, and it is slower.
///
/// One defect of real exports is tolerated: attribute names with spaces, which 2015 exports
/// wrote for third-party metadata; each such element is counted in `repairedElements`.
///
/// Not a validating parser: it does not check character classes or duplicate attributes.
public final class AppleHealthExportParser {
  /// Receives each item and the 1-based line its element starts on.
  public typealias Handler = (HealthExportItem, Int) throws -> Void

  let handler: Handler
  /// The record types to build; others are checked for well-formedness but not decoded.
  let wantedTypes: [[UInt8]]?

  /// Bytes not yet consumed: the unfinished token at the end of the last chunk.
  var pending: [UInt8] = []
  /// Absolute offset of the first byte of the buffer being parsed.
  var base = 0
  /// Current 1-based line and the absolute offset where it starts.
  var line = 1
  var lineStart = 0
  var sawRoot = false
  var rootClosed = false
  var sawAnyByte = false
  // Unchecked, these five: each tag accessed them a few times, and the dynamic exclusivity
  // checks cost about 65 instructions an access (12.5 M of thread 2's 214 M, callgrind,
  // 10 MB export, all types). No access to them is held across a call that could reach
  // them again: the handler is called outside any, and the C reader is handed a buffer.
  @exclusivity(unchecked) var stack: [StackEntry] = []
  /// The names of the open elements of kind `.other`, innermost last.
  var otherNames: [[UInt8]] = []
  /// The attributes of the tag just read: the first `attributeCount` of them. Never shorter
  /// than `plainTagAttributes` after a tag read well, so that a plain tag's attributes are
  /// written in place (`startTag`).
  @exclusivity(unchecked) var attributes = [AttributeSlice](
    repeating: AttributeSlice(), count: plainTagAttributes)
  @exclusivity(unchecked) var attributeCount = 0
  /// The last day and UTC offset read (see `HealthExportDate.Reader`).
  var dates = HealthExportDate.Reader()
  /// What records repeat from one to the next (see `RecordMemos`).
  @exclusivity(unchecked) var recordMemos = RecordMemos()
  /// Whether the tag just read had attribute names with spaces (see `startTag`).
  var tagRepaired = false
  /// Records, workouts and correlations handed over whose tag had attribute names with
  /// spaces, read as one name each.
  public internal(set) var repairedElements = 0

  @exclusivity(unchecked) var record: HealthExportRecord?
  var recordLine = 0
  var workout: HealthExportWorkout?
  var workoutLine = 0
  var workoutEvent: HealthExportWorkoutEvent?
  var workoutRoute: HealthExportWorkoutRoute?
  var correlation: HealthExportCorrelation?
  var correlationLine = 0

  /// Whether workouts are built (`healthWorkoutType` among the wanted types, or no filter).
  let wantsWorkouts: Bool
  /// Whether a record's device is read as a `HealthDevice` (`resolvedDevice`) rather than
  /// as its text.
  let resolvingDevices: Bool
  /// Whether plain tags are read by `weigh_xml_plain_tag` (see `startTag`).
  let readsPlainTags: Bool

  /// A reader that builds records and correlations of `recordTypes` only, and workouts only
  /// when `recordTypes` holds `healthWorkoutType` (everything when nil), and hands them to
  /// `handler`. Elements left out are still checked for well-formedness. With
  /// `resolvingDevices`, a record's device is handed over as `resolvedDevice`, the device
  /// `HealthExportMapping` makes of its text, and `device` is nil: the import needs the
  /// device, not Apple's description, whose address differs on every record.
  public convenience init(
    recordTypes: Set<String>? = nil, resolvingDevices: Bool = false,
    handler: @escaping Handler
  ) {
    self.init(
      recordTypes: recordTypes, resolvingDevices: resolvingDevices, readsPlainTags: true,
      handler: handler)
  }

  /// A reader as above; without `readsPlainTags`, every tag is read the general way (the
  /// tests compare both ways).
  init(
    recordTypes: Set<String>?, resolvingDevices: Bool, readsPlainTags: Bool,
    handler: @escaping Handler
  ) {
    self.handler = handler
    self.wantedTypes = recordTypes.map { $0.map { Array($0.utf8) } }
    self.wantsWorkouts = recordTypes?.contains(healthWorkoutType) ?? true
    self.resolvingDevices = resolvingDevices
    self.readsPlainTags = readsPlainTags
  }

  /// Parses the next chunk of the file.
  ///
  /// - Throws: `ImportError` with line and column when the file is not well-formed, or
  ///   whatever the handler throws.
  /// - Complexity: O(n) in the chunk length plus the carried-over tail.
  public func feed(_ chunk: UnsafeRawBufferPointer) throws {
    let bytes = chunk.bindMemory(to: UInt8.self)
    // The token the last chunk cut is finished with as few of this chunk's bytes as it
    // takes, and the rest is read in place: appending the whole chunk behind it copied every
    // byte of the file once (121 M of the 2,287 M instructions of a 100 MB weights import).
    var offset = 0
    var piece = Self.firstPieceBytes
    while !pending.isEmpty, offset < bytes.count {
      let carried = pending.count
      let end = min(bytes.count, offset + piece)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<end]))
      offset = end
      let consumed = try pending.withUnsafeBufferPointer { try parse($0, final: false) }
      base += consumed
      if consumed >= carried {
        // What is left came from this chunk: read again in place below.
        offset -= pending.count - consumed
        pending.removeAll(keepingCapacity: true)
      } else {
        pending.removeSubrange(0..<consumed)
        piece *= 2
      }
    }
    if pending.isEmpty, offset < bytes.count {
      let rest = UnsafeBufferPointer(rebasing: bytes[offset...])
      let consumed = try parse(rest, final: false)
      if consumed < rest.count {
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: rest[consumed...]))
      }
      base += consumed
    }
    // Apple's elements are a few hundred bytes; an unfinished one this long means the file
    // is something else, and holding it would make memory grow with the file.
    if pending.count > Self.maximumTokenBytes {
      throw ImportError(
        line: line, column: base - lineStart + 1,
        "a single tag runs past 64 MiB; this is not an Apple Health export")
    }
  }

  /// The longest tag, comment or DTD kept while waiting for its end.
  static let maximumTokenBytes = 64 << 20

  /// The bytes of a new chunk first appended to an unfinished token (doubled while it stays
  /// unfinished): Apple's tags are a few hundred bytes.
  static let firstPieceBytes = 4096

  /// Parses the next chunk of the file.
  public func feed(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try feed($0) }
  }

  /// Ends the file: anything unfinished is an error.
  ///
  /// - Throws: `ImportError` for a truncated file, an unclosed element or a missing root.
  public func finish() throws {
    if !pending.isEmpty {
      _ = try pending.withUnsafeBufferPointer { try parse($0, final: true) }
    }
    let column = base + pending.count - lineStart + 1
    if !sawRoot {
      throw ImportError(
        line: line, column: column,
        sawAnyByte
          ? "no <HealthData> element; this is not an Apple Health export.xml"
          : "the file is empty; export it again from the Health app")
    }
    if let open = stack.last {
      throw ImportError(
        line: line, column: column,
        "the file ends inside <\(name(of: open))>; it is truncated, export it again from the Health app"
      )
    }
  }

  // MARK: - Tokens

  /// Parses whole tokens from `p`; returns how many bytes were consumed.
  func parse(_ p: UnsafeBufferPointer<UInt8>, final: Bool) throws -> Int {
    let n = p.count
    var i = 0
    if n > 0 { sawAnyByte = true }
    if base == 0, n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
    while true {
      let tokenStart = i
      let savedLine = line
      let savedLineStart = lineStart
      // Text between tags: Apple writes only indentation, but any text is legal inside.
      let outsideRoot = stack.isEmpty
      while i < n {
        let byte = p[i]
        if byte == 0x3C { break }
        if byte == 0x0A {
          line += 1
          lineStart = base + i + 1
        } else if byte != 0x20, byte != 0x09, byte != 0x0D, outsideRoot {
          throw error(at: i, "text outside the root element")
        }
        i += 1
      }
      if i == n { return n }
      let markupStart = i
      let markupLine = line
      let markupLineStart = lineStart
      do {
        guard i + 1 < n else { throw Incomplete() }
        switch p[i + 1] {
        case 0x2F: try endTag(p, &i)
        case 0x3F: try skip(p, &i, past: 0x3F, 0x3E, what: "processing instruction")
        case 0x21: try declaration(p, &i)
        default: try startTag(p, &i, markupStart: markupStart)
        }
      } catch is Incomplete {
        if final {
          line = markupLine
          lineStart = markupLineStart
          throw error(
            at: markupStart,
            "the file ends inside this tag; it is truncated, export it again from the Health app")
        }
        line = savedLine
        lineStart = savedLineStart
        _ = tokenStart
        // Keep the text too, so that its newlines are counted once.
        return tokenStart
      }
    }
  }

  /// The name of `entry`, the innermost open element.
  func name(of entry: StackEntry) -> String {
    guard entry.kind == .other, let name = otherNames.last else { return entry.kind.rawValue }
    return String(decoding: name, as: UTF8.self)
  }

  /// Thrown inside the tokenizer when the chunk ends in the middle of a token.
  struct Incomplete: Error {}

  func error(at index: Int, _ message: String) -> ImportError {
    ImportError(line: line, column: base + index - lineStart + 1, message)
  }

  @inline(__always)
  func newline(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) {
    if p[i] == 0x0A {
      line += 1
      lineStart = base + i + 1
    }
  }

  @inline(__always)
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  /// Skips from `<` to just past the two-byte terminator `a b` (`?>`).
  func skip(
    _ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, past a: UInt8, _ b: UInt8, what: String
  )
    throws
  {
    var j = i + 2
    while j + 1 < p.count {
      if p[j] == a, p[j + 1] == b {
        i = j + 2
        return
      }
      newline(p, j)
      j += 1
    }
    throw Incomplete()
  }

  /// `<!-- -->`, `<![CDATA[ ]]>` or `<!DOCTYPE … [ … ]>`.
  func declaration(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws {
    let n = p.count
    let start = i
    func hasPrefix(_ literal: StaticString) throws -> Bool {
      let count = literal.utf8CodeUnitCount
      let matchable = min(count, n - start)
      for k in 0..<matchable where p[start + k] != literal.utf8Start[k] { return false }
      if matchable < count { throw Incomplete() }
      return true
    }
    if try hasPrefix("<!--") {
      var j = start + 4
      while j + 2 < n {
        if p[j] == 0x2D, p[j + 1] == 0x2D {
          guard p[j + 2] == 0x3E else { throw error(at: j, "'--' inside a comment; remove it") }
          i = j + 3
          return
        }
        newline(p, j)
        j += 1
      }
      throw Incomplete()
    }
    if try hasPrefix("<![CDATA[") {
      guard !stack.isEmpty else { throw error(at: start, "CDATA outside the root element") }
      var j = start + 9
      while j + 2 < n {
        if p[j] == 0x5D, p[j + 1] == 0x5D, p[j + 2] == 0x3E {
          i = j + 3
          return
        }
        newline(p, j)
        j += 1
      }
      throw Incomplete()
    }
    if try hasPrefix("<!DOCTYPE") {
      guard !sawRoot else { throw error(at: start, "DOCTYPE after the root element") }
      // The internal subset ends at the first `]` followed by `>`; its contents are never
      // read, because Apple's has held unterminated ATTLISTs (iOS 16).
      var j = start + 9
      var inSubset = false
      while j < n {
        let byte = p[j]
        if !inSubset {
          if byte == 0x5B {
            inSubset = true
          } else if byte == 0x3E {
            i = j + 1
            return
          }
        } else if byte == 0x5D {
          var k = j + 1
          while k < n, Self.isSpace(p[k]) { k += 1 }
          guard k < n else { throw Incomplete() }
          if p[k] == 0x3E {
            for m in j..<k { newline(p, m) }
            i = k + 1
            return
          }
        }
        newline(p, j)
        j += 1
      }
      throw Incomplete()
    }
    throw error(at: start, "unknown markup '<!'; expected a comment, CDATA or DOCTYPE")
  }

  /// `</Name>`.
  func endTag(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws {
    let n = p.count
    let start = i
    var j = i + 2
    let nameStart = j
    while j < n, !Self.isSpace(p[j]), p[j] != 0x3E { j += 1 }
    let nameEnd = j
    while j < n, Self.isSpace(p[j]) {
      newline(p, j)
      j += 1
    }
    guard j < n else { throw Incomplete() }
    guard p[j] == 0x3E, nameEnd > nameStart else {
      throw error(at: start, "malformed end tag; expected </Name>")
    }
    let kind = ElementKind(p, nameStart, nameEnd)
    guard let open = stack.last else {
      throw error(at: start, "unexpected end tag </\(Self.text(p, nameStart, nameEnd))>")
    }
    guard open.kind == kind,
      kind != .other || otherNames.last!.elementsEqual(p[nameStart..<nameEnd])
    else {
      throw error(
        at: start,
        "mismatched end tag </\(Self.text(p, nameStart, nameEnd))>; expected </\(name(of: open))>")
    }
    stack.removeLast()
    if kind == .other { otherNames.removeLast() }
    i = j + 1
    try closed(kind)
  }

  /// The most attributes of a tag read by `weigh_xml_plain_tag` (Apple's records have ten at
  /// most, iOS 8's a few more); a tag with more is read the general way.
  static let plainTagAttributes = 32

  /// `<Name a="v" …>` or `<Name … />`.
  func startTag(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, markupStart: Int) throws {
    // Nearly every tag of an export is plain (see `weigh_xml_plain_tag`): read in C at about
    // 700 instructions a record where the loop below took about 2,300 (callgrind, 10 MB
    // export, thread 2: `startTag` 81.6 M of 254.9 M). Anything else, well-formed or not, is
    // read below, which gives every error its line and column.
    if readsPlainTags {
      var nameEnd = 0
      var count = 0
      var selfClosing = false
      let end = attributes.withUnsafeMutableBufferPointer { slices in
        weigh_xml_plain_tag(
          p.baseAddress!, i + 1, p.count, slices.baseAddress!, slices.count, &nameEnd, &count,
          &selfClosing)
      }
      if end > 0 {
        attributeCount = count
        tagRepaired = false
        let nameStart = i + 1
        i = end
        try opened(
          p, kind: ElementKind(p, nameStart, nameEnd), nameStart: nameStart, nameEnd: nameEnd,
          selfClosing: selfClosing, line: line, at: markupStart)
        return
      }
    }
    try generalStartTag(p, &i, markupStart: markupStart)
  }

  /// `startTag` for any tag: plain ones read as `weigh_xml_plain_tag` reads them, and every
  /// error found.
  func generalStartTag(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, markupStart: Int) throws {
    let n = p.count
    let tagLine = line
    var j = i + 1
    let nameStart = j
    while j < n {
      let byte = p[j]
      if Self.isSpace(byte) || byte == 0x3E || byte == 0x2F { break }
      if byte == 0x3C || byte == 0x3D || byte == 0x22 || byte == 0x27 {
        throw error(at: j, "unexpected '\(Character(Unicode.Scalar(byte)))' in an element name")
      }
      j += 1
    }
    guard j < n else { throw Incomplete() }
    let nameEnd = j
    guard nameEnd > nameStart else {
      throw error(at: markupStart, "expected an element name after '<'")
    }
    // A local copy, handed back below: appending to the stored property in this loop
    // cost a dynamic exclusivity check per attribute (about 40% of the time in perf).
    var attributes = self.attributes
    self.attributes = []
    attributeCount = 0
    // Written over in place: `removeAll(keepingCapacity:)` cost about 80 instructions a tag.
    var count = 0
    tagRepaired = false
    // Handed back below, before `opened` reads it; a tag that throws (cut by the chunk's
    // end, or malformed) leaves an empty array, so its capacity is made again once per chunk.
    var selfClosing = false
    while true {
      var sawSpace = false
      while j < n, Self.isSpace(p[j]) {
        newline(p, j)
        sawSpace = true
        j += 1
      }
      guard j < n else { throw Incomplete() }
      let byte = p[j]
      if byte == 0x3E {
        j += 1
        break
      }
      if byte == 0x2F {
        guard j + 1 < n else { throw Incomplete() }
        guard p[j + 1] == 0x3E else { throw error(at: j, "expected '>' after '/'") }
        selfClosing = true
        j += 2
        break
      }
      guard sawSpace else { throw error(at: j, "expected a space before the attribute") }
      let attributeNameStart = j
      var attributeNameEnd = j
      // iOS 8 wrote third-party metadata as attributes named by their keys, spaces and all
      // (`Health Mate App Version="2.6.2"`). XML has no attribute without a value, so words
      // up to the `=` can only be one name: read them as one and count the repair.
      var words = 0
      while true {
        let wordStart = j
        while true {
          j = Self.nameRunEnd(p, from: j)
          if j == n || ValueScan.endsName(p[j]) { break }
          j += 1
        }
        if j > wordStart {
          words += 1
          attributeNameEnd = j
        }
        while j < n, Self.isSpace(p[j]) {
          newline(p, j)
          j += 1
        }
        guard j < n else { throw Incomplete() }
        let c = p[j]
        if c == 0x3D || c == 0x3E || c == 0x2F || c == 0x3C { break }
      }
      guard p[j] == 0x3D, attributeNameEnd > attributeNameStart else {
        throw error(at: attributeNameStart, "expected name=\"value\" in the attribute list")
      }
      if words > 1 { tagRepaired = true }
      j += 1
      while j < n, Self.isSpace(p[j]) {
        newline(p, j)
        j += 1
      }
      guard j < n else { throw Incomplete() }
      let quote = p[j]
      guard quote == 0x22 || quote == 0x27 else {
        throw error(at: j, "attribute values must be quoted")
      }
      j += 1
      let valueStart = j
      var needsDecoding = false
      while true {
        // Values are most of a tag's bytes, and most of their bytes need no look.
        j = Self.plainRunEnd(p, from: j, quote: quote)
        guard j < n else { throw Incomplete() }
        let c = p[j]
        if c == quote { break }
        if c == 0x3C { throw error(at: j, "'<' in an attribute value; write &lt;") }
        if c == 0x26 {
          try checkReference(p, j)
          needsDecoding = true
        } else if c == 0x0A || c == 0x09 || c == 0x0D {
          newline(p, j)
          needsDecoding = true
        }
        j += 1
      }
      let slice = AttributeSlice(
        nameStart: attributeNameStart, nameEnd: attributeNameEnd, valueStart: valueStart,
        valueEnd: j, needsDecoding: needsDecoding)
      if count < attributes.count {
        attributes[count] = slice
      } else {
        attributes.append(slice)
      }
      count += 1
      j += 1
    }
    i = j
    if attributes.count < Self.plainTagAttributes {
      attributes += repeatElement(
        AttributeSlice(), count: Self.plainTagAttributes - attributes.count)
    }
    self.attributes = attributes
    attributeCount = count
    try opened(
      p, kind: ElementKind(p, nameStart, nameEnd), nameStart: nameStart, nameEnd: nameEnd,
      selfClosing: selfClosing, line: tagLine, at: markupStart)
  }

  /// Checks the entity or character reference at `&` (index `j`).
  func checkReference(_ p: UnsafeBufferPointer<UInt8>, _ j: Int) throws {
    // `&lt;` and `&gt;` are nearly every reference of an export (four in each device's
    // description): one word compared, where the scan for `;` and the look at the name took
    // about 90 instructions a reference (callgrind, 10 MB export: 9 M of thread 2's 291 M).
    if j + 4 <= p.count {
      // checked: four bytes read as one word, no conversion of a value
      let word = UInt32(
        littleEndian: UnsafeRawPointer(p.baseAddress! + j).loadUnaligned(as: UInt32.self))
      if word == Self.lessThanReference || word == Self.greaterThanReference { return }
    }
    var k = j + 1
    while k < p.count, p[k] != 0x3B, k - j < 12 { k += 1 }
    guard k < p.count else { throw Incomplete() }
    guard p[k] == 0x3B, Self.referenceScalar(p, j + 1, k) != nil else {
      throw error(at: j, "unknown entity or bad character reference; write &amp; for '&'")
    }
  }

  /// `&lt;` and `&gt;` as little-endian words.
  static let lessThanReference: UInt32 = 0x3B74_6C26
  static let greaterThanReference: UInt32 = 0x3B74_6726

  /// The scalar the reference between `&` and `;` stands for (`lt`, `#10`, `#x1F600`).
  static func referenceScalar(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> UInt32?
  {
    let count = end - start
    guard count > 0 else { return nil }
    if p[start] == 0x23 {
      var scalar: UInt32 = 0
      var k = start + 1
      let hex = k < end && p[k] == 0x78
      if hex { k += 1 }
      guard k < end else { return nil }
      while k < end {
        let c = p[k]
        let digit: UInt32
        switch c {
        case 0x30...0x39: digit = UInt32(c - 0x30)  // checked: a hex digit
        case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)  // checked: a hex digit
        case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)  // checked: a hex digit
        default: return nil
        }
        scalar = scalar * (hex ? 16 : 10) + digit
        guard scalar <= 0x10FFFF else { return nil }
        k += 1
      }
      guard scalar != 0, Unicode.Scalar(scalar) != nil else { return nil }
      return scalar
    }
    switch (count, p[start], p[end - 1]) {
    case (2, 0x6C, 0x74): return 0x3C  // lt
    case (2, 0x67, 0x74): return 0x3E  // gt
    case (3, 0x61, 0x70) where p[start + 1] == 0x6D: return 0x26  // amp
    case (4, 0x71, 0x74) where p[start + 1] == 0x75 && p[start + 2] == 0x6F: return 0x22  // quot
    case (4, 0x61, 0x73) where p[start + 1] == 0x70 && p[start + 2] == 0x6F: return 0x27  // apos
    default: return nil
    }
  }

  /// Writes the UTF-8 encoding of a valid scalar at `out[w...]` and moves `w` past it (each
  /// byte fits: the branch bounds it).
  @inline(__always)
  static func writeUTF8(
    _ scalar: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at w: inout Int
  ) {
    switch scalar {
    case 0..<0x80:
      out[w] = UInt8(truncatingIfNeeded: scalar)
      w += 1
    case 0x80..<0x800:
      out[w] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
      out[w + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      w += 2
    case 0x800..<0x10000:
      out[w] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
      out[w + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
      out[w + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      w += 3
    default:
      out[w] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
      out[w + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
      out[w + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
      out[w + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      w += 4
    }
  }

  static func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
  }

  /// The value of `slice`, with references decoded and whitespace normalized as XML requires.
  func value(_ p: UnsafeBufferPointer<UInt8>, _ slice: AttributeSlice) -> String {
    guard slice.needsDecoding else { return Self.text(p, slice.valueStart, slice.valueEnd) }
    // Decoding never lengthens a value: a reference is at least as long as the UTF-8 of its
    // scalar (`&#N;` holds one byte of the four at most), a line break becomes one space.
    return String(unsafeUninitializedCapacity: slice.valueEnd - slice.valueStart) { out in
      var w = 0
      var k = slice.valueStart
      while k < slice.valueEnd {
        // The bytes up to the next reference or line break, copied as they are.
        var run = k
        while true {
          run = Self.decodedRunEnd(p, from: run, to: slice.valueEnd)
          if run == slice.valueEnd { break }
          let c = p[run]
          if c == 0x26 || c == 0x0D || c == 0x0A || c == 0x09 { break }
          run += 1
        }
        if run > k {
          (out.baseAddress! + w).update(from: p.baseAddress! + k, count: run - k)
          w += run - k
          k = run
          if k == slice.valueEnd { break }
        }
        let c = p[k]
        if c == 0x26 {
          var end = k + 1
          while p[end] != 0x3B { end += 1 }
          if let scalar = Self.referenceScalar(p, k + 1, end) {
            Self.writeUTF8(scalar, to: out, at: &w)
          }
          k = end + 1
          continue
        }
        // A line break or tab: one space (CR LF too).
        out[w] = 0x20
        if c == 0x0D, k + 1 < slice.valueEnd, p[k + 1] == 0x0A { k += 1 }
        w += 1
        k += 1
      }
      return w
    }
  }

  /// The value of `slice` through `memo`: the String made for the same bytes lately when
  /// they repeat (a record's type, source and unit), a new one otherwise.
  func value(_ p: UnsafeBufferPointer<UInt8>, _ slice: AttributeSlice, memo: inout RepeatedValue)
    -> String
  {
    guard !slice.needsDecoding else { return value(p, slice) }
    return memo.text(p, slice.valueStart, slice.valueEnd)
  }
}

/// The last few values of an attribute that repeats from element to element, as bytes and as
/// the String made of them: comparing a few bytes costs less than making the String again.
/// A few, because records of two or three types and sources take turns.
struct RepeatedValue {
  private var entries: [(bytes: [UInt8], text: String)] = []
  /// The entry replaced next once all are taken.
  private var next = 0
  static let capacity = 4

  /// The String of `p[start..<end]` (no references in it), a remembered one when the bytes
  /// are the same.
  mutating func text(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    let count = end - start
    // memcmp: the byte loop it replaced took 194 instructions a lookup (callgrind, 10 MB
    // export), nearly all of them hits comparing a 40-byte type whole.
    for index in entries.indices where entries[index].bytes.count == count {
      let same = entries[index].bytes.withUnsafeBufferPointer { bytes in
        count == 0 || memcmp(bytes.baseAddress!, p.baseAddress! + start, count) == 0
      }
      if same { return entries[index].text }
    }
    let text = AppleHealthExportParser.text(p, start, end)
    let entry = (bytes: Array(UnsafeBufferPointer(rebasing: p[start..<end])), text: text)
    if entries.count < Self.capacity {
      entries.append(entry)
    } else {
      entries[next] = entry
      next = (next + 1) % Self.capacity
    }
    return text
  }
}

/// What a `Record` repeats from the records before it: its type, source, version and unit
/// texts, its dates' day and offset, and its device. The parser's `recordMemos` is unchecked
/// for exclusivity: each use of a checked one cost about 90 instructions (seven a record;
/// callgrind, 10 MB export).
struct RecordMemos {
  var type = RepeatedValue()
  var source = RepeatedValue()
  var version = RepeatedValue()
  var unit = RepeatedValue()
  var dates = HealthExportDate.Reader()
  /// The devices read so far, when the parser is `resolvingDevices`.
  var devices = HealthExportDeviceMemo()
}

/// Where an attribute's name and value lie in the buffer being parsed (`nameStart`,
/// `nameEnd`, `valueStart`, `valueEnd`, `needsDecoding`): the C struct `weigh_xml_plain_tag`
/// writes.
typealias AttributeSlice = weigh_xml_attribute

/// An open element: its kind (its name, when it is not one weigh knows, is in the parser's
/// `otherNames`). Plain values: a name held here made each push, pop and look at the stack
/// retain and release it.
struct StackEntry {
  var kind: ElementKind
  /// Whether its content is being skipped (an unwanted or invalid record, a correlation's
  /// child record).
  var skipping: Bool
}
