import Foundation
import HealthSim
import Testing

@testable import WeighKit

/// The checks of the store's named documents: every wrong type or out-of-range value is
/// an error at the value's line and column, never a default.
@Suite struct StoreDocumentsTests {
  /// The error reading document `name` from `text` reports, or nil when it reads.
  func failure(_ name: String, _ text: String) -> JSONSyntaxError? {
    do {
      _ = try JSONReader.withReader(over: Array(text.utf8)) { reader throws(JSONSyntaxError) in
        try StoreDocuments.read(named: name, from: &reader)
      }
      return nil
    } catch {
      return error
    }
  }

  @Test func settingsOfTheWrongTypeOrOutOfRangeAreErrorsAtTheValue() {
    let cases: [(String, String, String)] = [
      (
        #"{"unit":"kg","height_m":"tall"}"#, #""tall""#,
        #"in document "settings": "height_m" must be a number (a height is 0.3 to 3 m), not a string"#
      ),
      (
        #"{"unit":"parsec"}"#, #""parsec""#,
        #"in document "settings": "unit" must be one of "kg", "lb", "st", not "parsec""#
      ),
      (
        #"{"daily":"noon"}"#, #""noon""#,
        #"in document "settings": "daily" must be one of "first", "morning", "latest", "average", not "noon""#
      ),
      (
        #"{"tz":"Mars/Base"}"#, #""Mars/Base""#,
        #"in document "settings": "tz" is "Mars/Base", which is not a time zone name such as "Europe/Paris""#
      ),
      (
        #"{"goal_kg":1e19}"#, "1e19",
        #"in document "settings": "goal_kg" is 1e+19, out of range: a weight is more than 0 and at most 1000 kg"#
      ),
      (
        #"{"pre_pregnancy_kg":0}"#, "0}",
        #"in document "settings": "pre_pregnancy_kg" is 0, out of range: a weight is more than 0 and at most 1000 kg"#
      ),
      (
        #"{"pregnancy_start":"2026-02-30"}"#, #""2026"#,
        #"in document "settings": "pregnancy_start" is "2026-02-30", not a date such as "2026-03-01" from 1900 to 9999"#
      ),
      (#"[1]"#, "[", #"in document "settings": the settings must be an object, not an array"#),
    ]
    for (text, at, message) in cases {
      let offset = text.utf8.count - text[text.range(of: at)!.lowerBound...].utf8.count
      #expect(
        failure("settings", text) == JSONSyntaxError(line: 1, column: offset + 1, message: message),
        "\(text)")
    }
  }

  @Test func theAppDocumentIsCheckedMemberByMember() {
    let cases: [(String, String, String)] = [
      (
        #"{"anchor":1e20}"#, "1e20",
        #"in document "app": "anchor" is 1e+20, out of range: an anchor is a whole number from 0 to 9007199254740991"#
      ),
      (
        #"{"anchor":-1}"#, "-1",
        #"in document "app": "anchor" is -1, out of range: an anchor is a whole number from 0 to 9007199254740991"#
      ),
      (
        #"{"sync_count":"3"}"#, #""3""#,
        #"in document "app": "sync_count" must be a number (a count is a whole number from 0 to 9007199254740991), not a string"#
      ),
      (
        #"{"last_sync":1e300}"#, "1e300",
        #"in document "app": "last_sync" is 1e+300, out of range: a time is a whole number of seconds from 1900-01-01 to 9999-12-31 (UTC)"#
      ),
      (
        #"{"dedup":"maybe"}"#, #""maybe""#,
        #"in document "app": "dedup" must be one of "uuid", "fuzzy", not "maybe""#
      ),
      (
        #"{"observing":"yearly"}"#, #""yearly""#,
        #"in document "app": "observing" must be one of "immediate", "hourly", "daily", "weekly", not "yearly""#
      ),
      (
        #"{"autopush":"yes"}"#, #""yes""#,
        #"in document "app": "autopush" must be true or false, not a string"#
      ),
      (
        #"{"pending_deletes":["3F2504E0-4F89-11D3-9A0C-0305E82C3301", 7]}"#, "7]",
        #"in document "app": "pending_deletes" must hold UUID strings such as "B3F2AF6D-0FC7-40C5-853B-559647364CEA""#
      ),
      (
        #"{"linked_through":9223372036854775806}"#, "9223",
        #"in document "app": "linked_through" is 9223372036854775806, out of range: an anchor is a whole number from 0 to 9007199254740991"#
      ),
    ]
    for (text, at, message) in cases {
      let offset = text.utf8.count - text[text.range(of: at)!.lowerBound...].utf8.count
      #expect(
        failure("app", text) == JSONSyntaxError(line: 1, column: offset + 1, message: message),
        "\(text)")
    }
  }

  @Test func whatWeighWritesReadsBack() throws {
    var app = AppDocument()
    app.anchor = 12
    app.lastSync = 1_767_254_400
    app.observing = "hourly"
    app.pendingDeletes = ["3F2504E0-4F89-11D3-9A0C-0305E82C3301"]
    app.linkedThrough = AppDocument.linksAnywhere
    #expect(try AppDocument(document: app.json) == app)
    var settings = Settings()
    settings.height = 1.8
    settings.goal = 65
    settings.pregnancyStart = CivilDate(year: 2026, month: 2, day: 28)
    settings.timeZone = "Europe/Paris"
    #expect(try Settings(document: settings.json) == settings)
    let health = HealthStore(app: HealthLink.app, seed: 1, clock: Date(timeIntervalSince1970: 1e9))
    let state = try DocumentCoding.encode(health.smallState)
    #expect(try HealthStateDocument.decode(state) == health.smallState)
    // Missing members keep their defaults; unknown ones are ignored.
    #expect(try AppDocument(document: ["future": 1]) == AppDocument(document: [:]))
    #expect(try Settings(document: ["future": "x", "unit": "lb"]).unit == .lb)
  }

  @Test func theHealthDocumentIsCheckedThroughCodableAndRanges() throws {
    let health = HealthStore(app: HealthLink.app, seed: 1, clock: Date(timeIntervalSince1970: 1e9))
    guard case .object(var state) = try DocumentCoding.encode(health.smallState),
      case .object(var settings)? = state["settings"]
    else {
      Issue.record("the health state is not an object")
      return
    }
    func problem(_ change: (inout [String: JSONValue]) -> Void) -> DocumentProblem? {
      var changed = state
      change(&changed)
      do {
        _ = try HealthStateDocument.decode(.object(changed))
        return nil
      } catch {
        return error
      }
    }
    settings["retryBackoff"] = -5
    state["settings"] = .object(settings)
    #expect(
      problem { _ in }
        == DocumentProblem(
          path: [.key("settings"), .key("retryBackoff")],
          message:
            #""retryBackoff" is -5, out of range: a duration is 0 to 1000 years (31556952000 s)"#))
    // No retry may be scheduled past what a date can hold.
    settings["retryBackoff"] = 31_556_952_000
    settings["retryBackoffMultiplier"] = 10
    settings["maximumFailedDeliveries"] = 100
    state["settings"] = .object(settings)
    #expect(problem { _ in }?.path == [.key("settings"), .key("retryBackoffMultiplier")])
    settings["retryBackoffMultiplier"] = 2
    settings["maximumFailedDeliveries"] = 3
    settings["retryBackoff"] = 60
    settings["platform"] = nil
    state["settings"] = .object(settings)
    #expect(problem { _ in } == nil, "a missing knob keeps its default")
    settings["platform"] = .null
    state["settings"] = .object(settings)
    #expect(
      problem { _ in }
        == DocumentProblem(
          path: [.key("settings"), .key("platform")],
          message: #""platform" must not be null; leave it out for the default"#))
    settings["platform"] = "iOS9"
    state["settings"] = .object(settings)
    #expect(
      problem { _ in }
        == DocumentProblem(
          path: [.key("settings"), .key("platform")],
          message: #""platform" is "iOS9", which this weigh does not know"#))
    settings["platform"] = "iOS"
    state["settings"] = .object(settings)
    #expect(
      problem { $0["clock"] = 1e300 }?.message
        == #""clock" is 1e+300, out of range: a time is from 1900-01-01 to 9999-12-31 (seconds since 2001-01-01)"#
    )
    #expect(
      problem { $0["clock"] = "now" }?.message
        == #""clock" must be a number (a time is from 1900-01-01 to 9999-12-31 (seconds since 2001-01-01)), not a string"#
    )
    // What the ranges do not cover, Codable finds, with its path.
    #expect(
      problem {
        if case .object(var device)? = $0["device"] {
          device["isLocked"] = 1
          $0["device"] = .object(device)
        }
      }
        == DocumentProblem(
          path: [.key("device"), .key("isLocked")], message: #""isLocked" must be true or false"#))
    #expect(problem { $0["counter"] = 1e20 }?.path == [.key("counter")])
    #expect(problem { $0["app"] = nil }?.message == #"the health document lacks "app""#)
    #expect(problem { $0["device"] = [:] }?.message == #""device" lacks "isHealthDataAvailable""#)
    #expect(problem { _ in } == nil)
  }

  @Test func aProblemInsideNestedArraysPointsAtTheValue() {
    let text = """
      {"clock":0,"simulations":[
        {"definition":{"interval":0,"name":"s"}}
      ]}
      """
    let error = failure("health", text)
    // Codable finds the missing members first; the position is the simulation's definition.
    #expect(error?.line == 2)
    #expect(error?.message.hasPrefix(#"in document "health": "#) == true)
  }

  @Test func theSyncIndexMarkIsABoolean() {
    #expect(
      failure("health-sync-index", "1")
        == JSONSyntaxError(
          line: 1, column: 1,
          message:
            #"in document "health-sync-index": "health-sync-index" must be true or false, not a number"#
        ))
    #expect(failure("health-sync-index", "true") == nil)
    // Documents weigh does not know are kept as they are.
    #expect(failure("goal", #"{"anything":[1e300]}"#) == nil)
  }

  @Test func checkValidatesAllDocumentsWithTheirNames() {
    #expect(
      throws: DocumentProblem(
        path: [.key("settings"), .key("height_m")],
        message: #""height_m" must be a number (a height is 0.3 to 3 m), not a string"#)
    ) {
      try StoreDocuments.validate(documents: ["app": [:], "settings": ["height_m": "tall"]])
    }
  }

  @Test func weighJsonPointsAtTheBadDocumentValue() {
    let text = """
      {
        "format": "weigh-store",
        "version": 1,
        "sequence": 0,
        "tables": {},
        "documents": {
          "app": {"anchor": 1e20}
        }
      }
      """
    #expect(
      throws: StoreError(
        .corrupt, file: "weigh.json", line: 7, column: 23,
        message:
          #"in document "app": "anchor" is 1e+20, out of range: an anchor is a whole number from 0 to 9007199254740991"#
      )
    ) {
      try StoreManifest.decode(Array(text.utf8), path: "weigh.json")
    }
  }
}
