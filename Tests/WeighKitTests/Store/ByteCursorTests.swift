import Testing

@testable import WeighKit

/// The encoders write through `ByteCursor` (a pointer into room made once per row) instead
/// of a call into `Array` per piece. Their text must be the one the piecewise writer wrote,
/// byte for byte: these tests hold the writer as it was (`Reference`, the `JSONWriter` of
/// 2f2b6d6 restated with `String`s) and compare on millions of values.
@Suite struct ByteCursorTests {
  /// The writer before `ByteCursor`.
  enum Reference {
    /// `JSONWriter.write(Double)`: NaN and infinity as null; a whole number below 2^53 as
    /// its digits and ".0"; any other as its `description`.
    static func double(_ value: Double) -> String {
      guard value.isFinite else { return "null" }
      if value == value.rounded(.towardZero), value.magnitude < 9_007_199_254_740_992,
        value != 0 || value.sign == .plus
      {
        return String(Int(value)) + ".0"  // checked: whole, below 2^53 in magnitude
      }
      return value.description
    }

    /// `JSONWriter.write(String)`.
    static func string(_ text: String) -> String {
      let hex = Array("0123456789abcdef".utf8)
      var out: [UInt8] = [0x22]
      for byte in text.utf8 {
        switch byte {
        case 0x22: out += Array("\\\"".utf8)
        case 0x5C: out += Array("\\\\".utf8)
        case 0x0A: out += Array("\\n".utf8)
        case 0x0D: out += Array("\\r".utf8)
        case 0x09: out += Array("\\t".utf8)
        case 0x00..<0x20:
          out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: out.append(byte)
        }
      }
      out.append(0x22)
      return String(decoding: out, as: UTF8.self)
    }

    /// `EntryCodec.encode` as it was, member by member.
    static func entry(_ entry: Entry) -> String {
      var out = "{\"id\":\(entry.id),\"at\":"
      if UTCInstantText.range.contains(entry.instant) {
        out += "\"" + UTCInstantText.text(entry.instant) + "\""
      } else {
        out += String(entry.instant)
      }
      out += ",\"kg\":" + double(entry.kilograms)
      out += ",\"origin\":" + string(entry.origin.rawValue)
      out += ",\"source\":" + string(entry.source)
      if let note = entry.note { out += ",\"note\":" + string(note) }
      out += ",\"rev\":\(entry.revision)"
      if let uuid = entry.healthUUID { out += ",\"healthUUID\":" + string(uuid) }
      if let uuid = entry.pushedUUID { out += ",\"pushedUUID\":" + string(uuid) }
      if let revision = entry.pushedRevision { out += ",\"pushedRev\":\(revision)" }
      if let fileTime = entry.fileTime, UTCInstantText.range.contains(fileTime) {
        out += ",\"fileTime\":\"" + String(UTCInstantText.text(fileTime).dropLast()) + "\""
      }
      return out + "}"
    }
  }

  /// A fixed sequence of pseudo-random numbers (SplitMix64), the same on every run.
  struct Numbers {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }

    /// A Double of one of the kinds an encoder meets: any bit pattern, a short decimal (a
    /// weight, a Health value), a decimal of up to 17 digits at any scale, or one next to a
    /// boundary of the fast path (0.001, powers of ten, 2^52, 2^53); of either sign.
    mutating func double() -> Double {
      var value: Double
      switch below(5) {
      case 0:
        value = Double(bitPattern: next())
      case 1:
        value = Double(below(3_000_000)) / [1, 10, 100, 1000][Int(below(4))]  // checked: below 4
      case 2:
        let digits = below(UInt64(pow10(Int(below(18)))) + 1)  // checked: below 18, 10^17 fits
        value = Double(digits) / pow10(Int(below(23)))  // checked: below 23
      case 3:
        let anchors: [Double] = [
          0.001, 0.01, 0.1, 1, 10, 100, 1e15, 4_503_599_627_370_496, 9_007_199_254_740_992,
          0.3, 68.5, 70.1, 1e-4, 123.456,
        ]
        value = anchors[Int(below(UInt64(anchors.count)))]  // checked: an index
        for _ in 0..<below(4) { value = below(2) == 0 ? value.nextUp : value.nextDown }
      default:
        value = Double(below(1 << 53)) * pow10(Int(below(40))) / pow10(Int(below(40)))
      }
      return below(2) == 0 ? value : -value
    }

    private func pow10(_ exponent: Int) -> Double {
      var power = 1.0
      for _ in 0..<exponent { power *= 10 }
      return power
    }

    /// A string with quotes, backslashes, control characters and letters past ASCII now
    /// and then.
    mutating func text() -> String {
      let pieces = [
        "a", "Withings", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", "é", "日本", "🙂", " ",
        "\u{7F}",
      ]
      var out = ""
      for _ in 0..<below(12) { out += pieces[Int(below(UInt64(pieces.count)))] }
      return out
    }
  }

  private static func written(_ write: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func aDoubleIsWrittenAsItAlwaysWasOnTwoMillionValues() {
    var numbers = Numbers(state: 20_261_126)
    var fast = 0
    var mismatches: [Double] = []
    var writer = JSONWriter()
    for _ in 0..<2_000_000 {
      let value = numbers.double()
      writer.truncate(to: 0)
      writer.write(value)
      let expected = Reference.double(value)
      if !writer.bytes.elementsEqual(expected.utf8) { mismatches.append(value) }
      if value.isFinite, value.magnitude >= 0.001, value != value.rounded(.towardZero),
        ByteCursor.shortestDecimal(value.magnitude) != nil
      {
        fast += 1
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0) (\($0.bitPattern))" })")
    // The short-decimal path was taken, for a good share of the values.
    #expect(fast > 500_000)
  }

  /// `ByteCursor.shortestDecimal` as it was before it halved the range of scales: every
  /// scale tried in turn.
  static func shortestDecimalByScan(_ value: Double) -> (digits: UInt64, scale: Int)? {
    let ulp = value.ulp
    var power = 1.0
    for scale in 1...17 {
      power *= 10
      guard power * ulp < 1 else { return nil }
      guard let middle = UInt64(exactly: (value * power).rounded()) else { return nil }
      var found: UInt64?
      for offset: UInt64 in 0..<3 {
        let candidate = middle &+ offset &- 1
        guard candidate < 1 << 53, Double(candidate) / power == value else { continue }
        guard found == nil else { return nil }
        found = candidate
      }
      if let found { return (found, scale) }
    }
    return nil
  }

  @Test func theShortestDecimalIsTheOneEveryScaleInTurnFinds() {
    var numbers = Numbers(state: 20_261_127)
    var checked = 0
    var mismatches: [Double] = []
    func check(_ value: Double) {
      guard value.isFinite, value > 0, value != value.rounded(.towardZero) else { return }
      let fast = ByteCursor.shortestDecimal(value)
      let scan = Self.shortestDecimalByScan(value)
      if fast?.digits != scan?.digits || fast?.scale != scan?.scale { mismatches.append(value) }
      checked += 1
    }
    for _ in 0..<1_000_000 { check(numbers.double().magnitude) }
    // Weights in pounds and stones to kilograms (a Fitbit or Withings file's), to 0.01 lb.
    for hundredths in stride(from: 1, through: 200_000, by: 1) {
      check(Double(hundredths) / 100 * 0.453_592_37)
      check(Double(hundredths) / 100 * 6.350_293_18)
    }
    #expect(checked > 1_000_000)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0) (\($0.bitPattern))" })")
  }

  /// `ByteCursor.shortestDecimal` as it was before it took the decimal at the largest scale
  /// (wstore11): the first scale with a decimal found by halving the range of scales.
  static func shortestDecimalByHalving(_ value: Double) -> (digits: UInt64, scale: Int)? {
    let ulp = value.ulp
    // The search is the old one; the decimals at one scale are the cursor's own.
    func decimals(_ scale: Int) -> (count: Int, digits: UInt64) {
      ByteCursor.decimals(value, scale: scale)
    }
    var low = 1
    while low <= 2 {
      guard ByteCursor.powersOfTen[low] * ulp < 1 else { return nil }
      let (count, digits) = decimals(low)
      guard count == 0 else { return count == 1 ? (digits, low) : nil }
      low += 1
    }
    var top = 2
    while top < 17, ByteCursor.powersOfTen[top + 1] * ulp < 1 { top += 1 }
    guard low <= top else { return nil }
    var found = decimals(top)
    guard found.count > 0 else { return nil }
    var high = top
    while low < high {
      let middle = (low + high) / 2
      let atMiddle = decimals(middle)
      if atMiddle.count > 0 {
        high = middle
        found = atMiddle
      } else {
        low = middle + 1
      }
    }
    return found.count == 1 ? (found.digits, high) : nil
  }

  @Test func theDecimalAtTheLargestScaleIsTheOneHalvingFinds() {
    var numbers = Numbers(state: 20_261_127_12)
    var checked = 0
    var found = 0
    var mismatches: [Double] = []
    func check(_ value: Double) {
      guard value.isFinite, value > 0, value != value.rounded(.towardZero) else { return }
      let fast = ByteCursor.shortestDecimal(value)
      let halving = Self.shortestDecimalByHalving(value)
      if fast?.digits != halving?.digits || fast?.scale != halving?.scale {
        mismatches.append(value)
      }
      if fast != nil { found += 1 }
      checked += 1
    }
    for _ in 0..<1_000_000 { check(numbers.double().magnitude) }
    // Decimals of 1 to 17 fraction digits and the Doubles next to them.
    for _ in 0..<300_000 {
      let scale = Int(numbers.below(17)) + 1
      let value = Double(numbers.below(1 << 53)) / ByteCursor.powersOfTen[scale]
      check(value)
      check(value.nextUp)
      check(value.nextDown)
    }
    // Weights in pounds and stones to kilograms, to 0.001 lb (Fitbit's logs), and back.
    for thousandths in 1...2_000_000 {
      check(Double(thousandths) / 1000 * 0.453_592_37)
      check(Double(thousandths) / 1000 / 0.453_592_37)
    }
    #expect(checked > 4_000_000)
    #expect(found > 2_000_000)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { "\($0) (\($0.bitPattern))" })")
  }

  @Test func theLargestSparseScaleIsTheOneCountedStepByStep() {
    var numbers = Numbers(state: 20_261_127_13)
    var values: [Double] = [
      .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.001, 1, 60.01,
    ]
    for exponent in -1074...1023 {
      let value = Double(sign: .plus, exponent: exponent, significand: 1)
      values += [value, value.nextUp, value.nextDown]
    }
    for _ in 0..<200_000 { values.append(numbers.double().magnitude) }
    for value in values where value.isFinite && value > 0 {
      let counted = ByteCursor.sparseScaleByCounting(value.ulp)
      #expect(ByteCursor.largestSparseScale(value) == counted, "\(value)")
      if ByteCursor.largestSparseScale(value) != counted { return }
    }
  }

  @Test func everyWeighWeightTakesTheShortDecimalPath() {
    // Every weight weigh accepts to 0.001 kg (0.001 … 1000): written without `description`.
    for thousandths in stride(from: 1, through: 1_000_000, by: 1) {
      let value = Double(thousandths) / 1000
      guard value != value.rounded(.towardZero) else { continue }
      let found = ByteCursor.shortestDecimal(value)
      #expect(found != nil, "\(value)")
      if found == nil { return }
      #expect(Self.written { $0.write(value) } == value.description)
    }
  }

  @Test func notFiniteIsNullAndSaysSo() {
    for value in [Double.nan, .infinity, -.infinity] {
      var writer = JSONWriter()
      writer.write(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == "null")
      #expect(writer.wroteNonFiniteNumber)
    }
  }

  @Test func integersAndStringsAreWrittenAsTheyAlwaysWere() {
    var numbers = Numbers(state: 7)
    for value in [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1] {
      #expect(Self.written { $0.write(value) } == String(value))
    }
    for _ in 0..<200_000 {
      let value = Int(truncatingIfNeeded: numbers.next()) >> Int(numbers.below(64))
      #expect(Self.written { $0.write(value) } == String(value))
    }
    for _ in 0..<20_000 {
      let text = numbers.text()
      #expect(Self.written { $0.write(text) } == Reference.string(text))
    }
    #expect(Self.written { $0.raw("{\"a\":") } == "{\"a\":")
  }

  @Test func anEntryIsWrittenAsItAlwaysWas() {
    var numbers = Numbers(state: 42)
    let uuids = ["3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3302"]
    let instants = ValueLimits.instant
    let outside: [Int64] = [
      UTCInstantText.range.lowerBound - 1, UTCInstantText.range.upperBound + 1,
    ]
    var writer = JSONWriter()
    for index in 0..<100_000 {
      func maybe<T>(_ value: @autoclosure () -> T) -> T? {
        numbers.below(3) == 0 ? value() : nil
      }
      let instant =
        numbers.below(50) == 0
        ? outside[Int(numbers.below(2))]  // checked: below 2
        : instants.lowerBound
          + Int64(numbers.below(UInt64(instants.upperBound - instants.lowerBound)))
      let fileTime: Int64? = maybe(
        numbers.below(20) == 0
          ? outside[Int(numbers.below(2))]  // checked: below 2
          : instants.lowerBound + Int64(numbers.below(1 << 40)))  // checked: below 2^40
      let entry = Entry(
        id: Int(numbers.below(2_147_483_647)) + 1,  // checked: Int32's range
        instant: instant,
        kilograms: index % 4 == 0 ? numbers.double() : Double(numbers.below(1_000_000)) / 1000,
        origin: Origin.allCases[Int(numbers.below(3))],  // checked: below 3
        source: index % 2 == 0 ? "Withings" : numbers.text(),
        note: maybe(numbers.text()),
        revision: Int(numbers.below(2_147_483_647)) + 1,  // checked: Int32's range
        healthUUID: maybe(uuids[Int(numbers.below(2))]),  // checked: below 2
        pushedUUID: maybe(numbers.below(2) == 0 ? uuids[1] : numbers.text()),
        pushedRevision: maybe(Int(numbers.below(2_147_483_647)) + 1),  // checked: Int32's range
        fileTime: fileTime)
      writer.truncate(to: 0)
      EntryCodec.encode(entry, into: &writer)
      let expected = Reference.entry(entry)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
      if String(decoding: writer.bytes, as: UTF8.self) != expected { return }
      #expect(writer.wroteNonFiniteNumber == !entry.kilograms.isFinite)
    }
  }

  @Test func rowsAfterOthersInOneBufferAreWrittenInPlace() {
    // Room is made after what the writer holds: several rows in one buffer, as a journal
    // record holds them, each as it is written alone.
    let entries = StoreLargeImportTests.imported(1...2000)
    var writer = JSONWriter()
    var expected = ""
    for entry in entries {
      writer.raw(",{\"put\":")
      writer.write("entries")
      writer.raw(",\"row\":")
      EntryCodec.encode(entry, into: &writer)
      expected += ",{\"put\":\"entries\",\"row\":" + Reference.entry(entry)
    }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
  }
}
