import Foundation
import HealthSim

/// The devices of an export's records, by the bytes of their `device` attribute after the
/// object address: a record's device made without the String of its description.
///
/// Apple writes `&lt;&lt;HKDevice: 0x…&gt;, name:…&gt;`, with an address that differs on
/// every record and identifies nothing. Decoding that text into a String on every record, only
/// for the mapping to cut its fields out again, took about 1,700 instructions a record
/// (callgrind, 10 MB export: 14.3 M the String, 6.6 M the mapping's cache, of thread 2's
/// 291 M); comparing the bytes after the address with the last few devices' takes a memcmp.
struct HealthExportDeviceMemo {
  /// The bytes after the address of the last few devices read, and the devices: records come
  /// from two or three devices in turn. The oldest is replaced first.
  private var recent: [(fields: [UInt8], device: HealthDevice)] = []
  private var nextRecent = 0
  /// Every device read in Apple's form, by the bytes after its address.
  private var known: [[UInt8]: HealthDevice] = [:]
  /// Devices of descriptions in no such form, by their decoded text (`HealthExportMapping`
  /// makes these the device's name).
  private var others: [String: HealthDevice] = [:]
  static let recentCount = 4

  /// The device of the attribute value `p[start..<end]`, whose decoded text `decoded` gives:
  /// `HealthExportMapping.device(decoded())`, made once for equal fields.
  ///
  /// The bytes after the address decide the device when the value starts with
  /// `&lt;&lt;HKDevice:`, then runs through ASCII bytes other than `&` and `>` up to `&gt;` or
  /// `>`: its text is then `<<HKDevice:` and the address up to its first `>`, and
  /// `HealthExportDevice(exportDescription:)` reads the text after that `>` alone. Decoding is
  /// byte by byte, with no state across that `>`, so equal bytes after it decode to equal
  /// text. Descriptions Apple's parse refuses become a device named by the whole text,
  /// address and all: they are never kept by their fields.
  mutating func device(
    _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, decoded: () -> String
  ) -> HealthDevice {
    guard let fieldsStart = Self.fieldsStart(p, start, end) else {
      let text = decoded()
      if let device = others[text] { return device }
      let device = HealthExportMapping.device(text)
      others[text] = device
      return device
    }
    let count = end - fieldsStart
    let fields = p.baseAddress! + fieldsStart
    // By index: a copy of each entry would retain its device.
    for index in recent.indices where recent[index].fields.count == count {
      let same = recent[index].fields.withUnsafeBufferPointer {
        count == 0 || memcmp($0.baseAddress!, fields, count) == 0
      }
      if same { return recent[index].device }
    }
    let key = Array(UnsafeBufferPointer(start: fields, count: count))
    let device: HealthDevice
    if let found = known[key] {
      device = found
    } else {
      let text = decoded()
      guard let parsed = HealthExportMapping.appleDevice(text) else {
        // Named by the whole text: not a function of the fields.
        return HealthDevice(name: text)
      }
      device = parsed
      known[key] = device
    }
    if recent.count < Self.recentCount {
      recent.append((key, device))
    } else {
      recent[nextRecent] = (key, device)
      nextRecent = (nextRecent + 1) % Self.recentCount
    }
    return device
  }

  /// Where the fields of the value `p[start..<end]` start, after the `&gt;` or `>` that ends
  /// its address, when it has the shape described at `device`; nil otherwise.
  static func fieldsStart(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    let prefix: StaticString = "&lt;&lt;HKDevice:"
    let prefixCount = prefix.utf8CodeUnitCount
    guard end - start >= prefixCount,
      memcmp(p.baseAddress! + start, prefix.utf8Start, prefixCount) == 0
    else { return nil }
    var k = start + prefixCount
    while k < end {
      let byte = p[k]
      if byte == 0x3E { return k + 1 }
      if byte == 0x26 {
        let close: StaticString = "&gt;"
        guard end - k >= 4, memcmp(p.baseAddress! + k, close.utf8Start, 4) == 0 else {
          return nil
        }
        return k + 4
      }
      if byte >= 0x80 { return nil }
      k += 1
    }
    return nil
  }
}
