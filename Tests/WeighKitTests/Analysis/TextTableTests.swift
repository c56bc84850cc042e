import Testing

@testable import WeighKit

@Suite struct TextTableTests {
  /// `list`'s layout: left, left, right, left, then free cells; a row may end early.
  @Test func alignedColumnsPadAsTheirAlignmentSays() {
    let lines = TextTable.aligned(
      [["#1", "a", "5 kg", "x", "Scale", "\"note\""], ["#10", "bb", "10 kg", "yy", "S"]],
      [.left, .left, .right, .left, .unpadded, .unpadded])
    #expect(lines == ["#1   a    5 kg  x   Scale  \"note\"", "#10  bb  10 kg  yy  S"])
  }

  /// A left-aligned cell that ends its row is not padded; a cell's own spaces stay.
  @Test func theLastCellOfARowIsNotPadded() {
    #expect(TextTable.aligned([["a"], ["bbb"]], [.left]) == ["a", "bbb"])
    #expect(
      TextTable.aligned([["a", "x "], ["bbb", "y"]], [.left, .unpadded]) == ["a    x ", "bbb  y"])
  }

  /// `columns` keeps its layout: first left, the rest right, trailing spaces trimmed.
  @Test func columnsRightAlignAllButTheFirst() {
    #expect(
      TextTable.columns(header: ["day", "kg"], rows: [["mon", "70.1"], ["tuesday", "7"]])
        == ["day        kg", "mon      70.1", "tuesday     7"])
  }
}
