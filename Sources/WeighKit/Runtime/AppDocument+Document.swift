extension AppDocument {
  /// The words `observing` may hold.
  static let observingWords = ["immediate", "hourly", "daily", "weekly"]

  /// The app document from a value weigh wrote; one that does not read (which the store
  /// refuses to load) leaves the defaults.
  init(json: JSONValue?) {
    self = (try? AppDocument(document: json)) ?? AppDocument()
  }

  /// The app document as the store holds it. A missing member keeps its default and an
  /// unknown member is ignored; a member of the wrong type or out of its range is a
  /// `DocumentProblem` at that member.
  init(document: JSONValue?) throws(DocumentProblem) {
    self.init()
    guard let document else { return }
    let fields = try DocumentFields(document, path: [], what: "the app document")
    anchor = try fields.whole("anchor", .sequence)
    lastSync = try fields.whole("last_sync", .wholeInstant)
    // checked: inside the count range
    if let count = try fields.whole("sync_count", .count) { syncCount = Int(count) }
    observing = try fields.word("observing", Self.observingWords)
    if let items = try fields.array("pending_deletes") {
      pendingDeletes = []
      for (index, item) in items.enumerated() {
        guard case .string(let text) = item, StoredText.isUUID(text) else {
          throw DocumentProblem(
            path: fields.path("pending_deletes") + [.index(index)],
            message: "\"pending_deletes\" must hold UUID strings such as "
              + "\"B3F2AF6D-0FC7-40C5-853B-559647364CEA\"")
        }
        pendingDeletes.append(text)
      }
    }
    if let mode = try fields.word("dedup", DedupMode.self) { dedup = mode }
    if let flag = try fields.bool("autopush") { autopush = flag }
    if let flag = try fields.bool("sync") { syncOnLaunch = flag }
    // `linksAnywhere` is kept as Int64.max; anything else is a change position.
    if case .integer(let value)? = fields.members["linked_through"],
      Int64(value) == Self.linksAnywhere  // checked: Int and Int64 have one width
    {
      linkedThrough = Self.linksAnywhere
    } else {
      linkedThrough = try fields.whole("linked_through", .sequence)
    }
  }
}
