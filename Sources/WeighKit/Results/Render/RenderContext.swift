/// What a renderer needs besides the result: the display unit and the time zone.
public struct RenderContext: Sendable {
  public var unit: DisplayUnit
  public var zone: ZonedClock
  public var format: OutputFormat = .text
}
