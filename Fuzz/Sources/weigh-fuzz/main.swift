import Foundation
import WeighKit

// libFuzzer's driver: SwiftPM links its own `main`, so this one starts libFuzzer by hand.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The target WEIGH_FUZZ_TARGET names; the process ends with usage if it names none.
let target: FuzzTargets.Target = {
  let name = ProcessInfo.processInfo.environment["WEIGH_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTargets.Target(rawValue: name) else {
    let names = FuzzTargets.Target.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(
      Data("set WEIGH_FUZZ_TARGET to one of: \(names)\n".utf8))
    exit(64)
  }
  return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTargets.run(target, bytes)
  return 0
}

_ = target
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv, testOneInput))
