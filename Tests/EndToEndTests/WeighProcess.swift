import Foundation

/// Runs the built `weigh` binary the way a user would, with piped stdin.
struct WeighProcess {
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  static let executable = PseudoTerminal.builtProduct(named: "weigh")

  /// Runs `weigh arguments…` with `input` on stdin, in `directory`, and waits for it.
  static func run(
    _ arguments: [String], input: String = "", directory: String? = nil,
    environment: [String: String] = [:]
  ) throws -> Result {
    try runBytes(
      arguments, input: Array(input.utf8), directory: directory, environment: environment)
  }

  /// Runs `weigh arguments…` with `input` (any bytes, UTF-8 or not) on stdin.
  static func runBytes(
    _ arguments: [String], input: [UInt8], directory: String? = nil,
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var base = ProcessInfo.processInfo.environment
    base["NO_COLOR"] = "1"
    base.merge(environment) { _, new in new }
    process.environment = base
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    // Read both pipes before waiting, so a full pipe cannot block the child.
    let group = DispatchGroup()
    nonisolatedRead(stderr, group: group)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: ErrorBuffer.shared.take(stderr), as: UTF8.self))
  }

  private static func nonisolatedRead(_ pipe: Pipe, group: DispatchGroup) {
    group.enter()
    let handle = pipe.fileHandleForReading
    DispatchQueue.global().async {
      let data = handle.readDataToEndOfFile()
      ErrorBuffer.shared.put(data, for: pipe)
      group.leave()
    }
  }

  /// A fresh temporary folder.
  static func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "weigh-e2e-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

/// Hands stderr's bytes from the reading thread to the test.
final class ErrorBuffer: @unchecked Sendable {
  static let shared = ErrorBuffer()
  private let lock = NSLock()
  private var data: [ObjectIdentifier: Data] = [:]

  func put(_ bytes: Data, for pipe: Pipe) {
    lock.lock()
    data[ObjectIdentifier(pipe)] = bytes
    lock.unlock()
  }

  func take(_ pipe: Pipe) -> Data {
    lock.lock()
    defer { lock.unlock() }
    return data.removeValue(forKey: ObjectIdentifier(pipe)) ?? Data()
  }
}
