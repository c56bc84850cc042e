import Foundation
import Testing

/// Numbers on the command line are checked like numbers in a script: a usage error that
/// names the range, never a crash or a parser's internal message.
@Suite struct NumericOptionTests {
  @Test(arguments: ["-1", "18446744073709551616", "4.2", "0x10", "+5"])
  func seedOutsideItsRangeIsAUsageError(_ seed: String) throws {
    let result = try WeighProcess.run(["--memory", "--seed", seed, "-e", "now"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("whole number from 0 to 18446744073709551615"))
    #expect(!result.standardError.contains("Missing value"))
  }

  @Test func largestSeedIsAccepted() throws {
    let result = try WeighProcess.run([
      "--memory", "--seed", "18446744073709551615", "--clock", "2026-01-01T08:00Z", "-e", "now",
    ])
    #expect(result.status == 0)
  }

  @Test func clockOutsideTheInstantRangeSaysWhy() throws {
    let result = try WeighProcess.run(["--memory", "--clock", "1899-12-31T23:59Z", "-e", "now"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("between 1900-01-01 and 9999-12-31"))
  }

  @Test func hugeNumbersFailWithStatusOneAndNoSignal() throws {
    for command in [
      "log 922337203685477580kg", "health add 9223372036854775807steps",
      "advance 99999999999999999999d", "list 99999999999999999999d",
    ] {
      let result = try WeighProcess.run(["--memory", "-e", command])
      #expect(result.status == 1, "\(command)")
      #expect(result.standardError.contains("error:"), "\(command)")
    }
  }
}
