import Foundation

/// Test files under Tests/fixtures, found from this source file's path.
enum Fixtures {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

  static func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: url(path)))
  }

  /// A fresh temporary folder for files a test writes.
  static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("weigh-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
