import HealthSim
import Testing

@testable import WeighKit

/// The reader's byte paths of a record (devices read from their bytes, attributes found by
/// words) and the mapping's revisions give what the general paths give.
struct AppleHealthExportResolvedDeviceTests {
  /// Device descriptions in every shape the memo must tell apart: Apple's with any address,
  /// the address closed by a raw `>`, references and line breaks, no fields, no final `>`,
  /// a non-ASCII address, a combining mark after the address, text of no known shape.
  private static func device(using generator: inout SeededGenerator) -> String {
    let address = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16)
    let name = ["Apple Watch", "iPhone", "Body+", "Anna’s iPhone", "a&b", "x>y"].randomElement(
      using: &generator)!
    let software = ["10.2", "17.2", "9.3"].randomElement(using: &generator)!
    let fields = ", name:\(name), manufacturer:Apple Inc., hardware:Watch6,7, software:\(software)"
    switch Int.random(in: 0..<13, using: &generator) {
    case 0: return "<<HKDevice: 0x\(address)>"
    case 1: return "<<HKDevice: 0x\(address)>\(fields)"
    case 2: return "<<HKDevice: 0x\(address)é>\(fields)>"
    case 3: return "<<HKDevice: 0x\(address)>\u{301}\(fields)>"
    case 4: return name
    case 5: return "<<HKDevice:>\(fields)>"
    case 6: return "<<HKDevice: 0x\(address)>\(fields)>\u{600}"
    case 7: return "<<HKDevice: 0x\(address)>\(fields)\u{600}>"
    default: return "<<HKDevice: 0x\(address)>\(fields)>"
    }
  }

  /// `text` as an attribute value, `<` and `&` always escaped, `>` as `&gt;` or raw, and
  /// now and then a character as a numeric reference or a space as a line break or a tab.
  private static func written(_ text: String, using generator: inout SeededGenerator) -> String {
    var out = ""
    for character in text {
      let roll = Int.random(in: 0..<10, using: &generator)
      switch character {
      case "<": out += roll == 0 ? "&#60;" : "&lt;"
      case "&": out += "&amp;"
      case ">": out += roll == 0 ? ">" : roll == 1 ? "&#x3E;" : "&gt;"
      case " " where roll == 0: out += ["\n", "\t", "\r\n"].randomElement(using: &generator)!
      case "a" where roll == 0: out += "&#97;"
      default: out.append(character)
      }
    }
    return out
  }

  @Test func devicesReadFromTheirBytesAreTheMappingsDevices() throws {
    var generator = SeededGenerator(seed: 1515)
    var document = "<HealthData locale=\"en\">\n"
    for index in 0..<600 {
      let device = Self.device(using: &generator)
      let hasDevice = Int.random(in: 0..<8, using: &generator) > 0
      var attributes = [
        "type=\"HKQuantityTypeIdentifierStepCount\"", "sourceName=\"Phone\"", "unit=\"count\"",
        "startDate=\"2020-01-01 10:00:00 +0100\"", "endDate=\"2020-01-01 10:05:00 +0100\"",
        "value=\"\(index)\"",
      ]
      if hasDevice {
        attributes.append("device=\"\(Self.written(device, using: &generator))\"")
      }
      attributes.shuffle(using: &generator)
      document += " <Record \(attributes.joined(separator: " "))/>\n"
    }
    document += "</HealthData>\n"
    let bytes = Array(document.utf8)
    func records(resolving: Bool, sizes: [Int]) throws -> [HealthExportRecord] {
      var records: [HealthExportRecord] = []
      let parser = AppleHealthExportParser(recordTypes: nil, resolvingDevices: resolving) {
        item, _ in
        if case .record(let record) = item { records.append(record) }
      }
      try parser.feed(bytes, inChunksOf: sizes)
      try parser.finish()
      return records
    }
    let general = try records(resolving: false, sizes: [bytes.count])
    #expect(general.count == 600)
    #expect(general.allSatisfy { $0.resolvedDevice == nil })
    let cache = HealthExportMapping.Cache()
    for sizes in [[bytes.count], [1], [7, 13], [333]] {
      let resolved = try records(resolving: true, sizes: sizes)
      #expect(resolved.count == general.count)
      for (plain, read) in zip(general, resolved) {
        #expect(read.device == nil)
        #expect(read.resolvedDevice == plain.device.map(HealthExportMapping.device))
        #expect(read.resolvedDevice == plain.device.map(cache.device))
        var same = read
        same.device = plain.device
        same.resolvedDevice = nil
        #expect(same == plain)
      }
    }
  }

  @Test func recordAttributesFindTheFirstOfEachName() {
    let names = [
      "type", "unit", "value", "source", "device", "endDate", "startDate", "sourceName",
      "creationDate", "sourceVersion", "typo", "unis", "valuE", "sourcf", "devicE", "endDatE",
      "startDatf", "sourceNamf", "creationDatf", "sourceVersioN", "HKWasUserEntered", "t",
      "Health Mate App Version", "Type", "sourceVersions",
    ]
    var generator = SeededGenerator(seed: 15)
    for _ in 0..<2000 {
      var bytes: [UInt8] = []
      var slices: [AttributeSlice] = []
      for _ in 0..<Int.random(in: 0...14, using: &generator) {
        let name = Array(names.randomElement(using: &generator)!.utf8)
        bytes.append(0x20)
        let nameStart = bytes.count
        bytes += name
        bytes += Array("=\"".utf8)
        let valueStart = bytes.count
        bytes += Array(String(Int.random(in: 0...99, using: &generator)).utf8)
        slices.append(
          AttributeSlice(
            nameStart: nameStart, nameEnd: nameStart + name.count, valueStart: valueStart,
            valueEnd: bytes.count, needsDecoding: false))
        bytes.append(0x22)
      }
      bytes += Array("/>".utf8)
      bytes.withUnsafeBufferPointer { p in
        let found = slices.withUnsafeBufferPointer { RecordAttributes(p, $0) }
        func first(_ name: String) -> Int? {
          slices.firstIndex { Array(p[$0.nameStart..<$0.nameEnd]) == Array(name.utf8) }
            .map { slices[$0].valueStart }
        }
        #expect(found.type?.valueStart == first("type"))
        #expect(found.unit?.valueStart == first("unit"))
        #expect(found.value?.valueStart == first("value"))
        #expect(found.source?.valueStart == first("source"))
        #expect(found.device?.valueStart == first("device"))
        #expect(found.endDate?.valueStart == first("endDate"))
        #expect(found.startDate?.valueStart == first("startDate"))
        #expect(found.sourceName?.valueStart == first("sourceName"))
        #expect(found.creationDate?.valueStart == first("creationDate"))
        #expect(found.sourceVersion?.valueStart == first("sourceVersion"))
        let known = names[0..<10].map { Array($0.utf8) }
        let others = slices.filter { !known.contains(Array(p[$0.nameStart..<$0.nameEnd])) }
        #expect(found.others == others.count)
      }
    }
  }

  @Test func revisionsAreTheMappingsAndOneForEqualTexts() {
    let cache = HealthExportMapping.Cache()
    var generator = SeededGenerator(seed: 1516)
    let names = ["Phone", "Anna’s iPhone", "Watch", "Withings", "Health", "a", "b"]
    let versions: [String?] = [nil, "1", "10.2", "17.2"]
    var first: [String: SourceRevision] = [:]
    for _ in 0..<3000 {
      let name = names.randomElement(using: &generator)!
      // A new String each time: equal texts in other storage.
      let version = versions.randomElement(using: &generator)!.map { String($0 + "") }
      let revision = cache.revision(String(name + ""), version)
      #expect(revision == HealthExportMapping.revision(name, version))
      let key = "\(name)|\(version ?? "-")"
      first[key] = first[key] ?? revision
      #expect(revision == first[key])
    }
  }

  @Test func numbersReadFromBytesAreTheGenericReadings() {
    var generator = SeededGenerator(seed: 1517)
    let alphabet = Array("0123456789.-+eE x٣")
    var texts = ["", "0", "448", "0123", "-0", "1e400", "12345678901234567890123", "1.5", "."]
    for _ in 0..<5000 {
      let count = Int.random(in: 1...24, using: &generator)
      texts.append(
        String((0..<count).map { _ in alphabet.randomElement(using: &generator)! }))
    }
    for text in texts {
      let read = HealthExportMapping.numberValue(text)
      let generic = DecimalText.parseJSONNumber(text)
      #expect(read?.bitPattern == generic?.bitPattern, "\(text)")
    }
  }

  @Test func referencesCheckedByWordsAsByTheirNames() {
    let parser = AppleHealthExportParser { _, _ in }
    var generator = SeededGenerator(seed: 1518)
    let alphabet = Array("&ltgamp;#x3E0q".utf8)
    var inputs = ["&lt;", "&gt;", "&lt", "&gt", "&lt;x", "&LT;", "&lT;", "&gt:", "&amp;"].map {
      Array($0.utf8)
    }
    for _ in 0..<20000 {
      let count = Int.random(in: 0...8, using: &generator)
      inputs.append([0x26] + (0..<count).map { _ in alphabet.randomElement(using: &generator)! })
    }
    for input in inputs {
      // The rule as written before the word test: up to `;` (within 12 bytes), then the name.
      var k = 1
      while k < input.count, input[k] != 0x3B, k < 12 { k += 1 }
      let expected: String
      if k == input.count {
        expected = "incomplete"
      } else {
        let scalar = input.withUnsafeBufferPointer {
          AppleHealthExportParser.referenceScalar($0, 1, k)
        }
        expected = input[k] == 0x3B && scalar != nil ? "ok" : "error"
      }
      let outcome: String
      do {
        try input.withUnsafeBufferPointer { try parser.checkReference($0, 0) }
        outcome = "ok"
      } catch is AppleHealthExportParser.Incomplete {
        outcome = "incomplete"
      } catch {
        outcome = "error"
      }
      #expect(outcome == expected, "\(String(decoding: input, as: UTF8.self))")
    }
  }
}
