import Foundation

/// The path of an executable SwiftPM built next to this test bundle, such as `"weigh"` (the
/// tests that run a second process: a writer holding the store, a child killed mid-commit).
func builtProduct(named name: String) -> String {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  let executable =
    length > 0
    ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    : CommandLine.arguments[0]
  return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name)
    .path
}
