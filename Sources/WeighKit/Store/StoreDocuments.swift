/// The checks of the store's named documents, shared by loading and `weigh check`: every
/// document weigh knows (`settings`, `app`, `health`, `health-sync-index`) is read the way
/// the session reads it, so a document that loads is one every command can use.
///
/// `weigh.json` and the journal call `read(named:from:)` for every document value they
/// hold; an error there points at the offending value itself (file, line and column).
/// A document with a name weigh does not know is kept unchecked, and so is a member of a
/// known document that weigh does not read: a newer weigh may have written them.
public enum StoreDocuments {
  /// Checks the document `name`; documents weigh does not know pass.
  ///
  /// - Throws: `DocumentProblem` whose path starts inside the document.
  public static func validate(name: String, value: JSONValue) throws(DocumentProblem) {
    switch DocumentName(rawValue: name) {
    case .settings:
      _ = try Settings(document: value)
    case .app:
      _ = try AppDocument(document: value)
    case .health:
      _ = try HealthStateDocument.decode(value)
    case .healthFormat:
      guard case .string = value else {
        throw DocumentProblem(
          path: [],
          message: "\"\(name)\" must be a file name, not \(DocumentFields.kind(of: value))")
      }
    case .healthSyncIndex, .healthSimulations:
      guard case .bool = value else {
        throw DocumentProblem(
          path: [],
          message: "\"\(name)\" must be true or false, not \(DocumentFields.kind(of: value))")
      }
    case nil:
      break
    }
  }

  /// Checks every document (`weigh check` on documents it holds as values).
  ///
  /// - Throws: `DocumentProblem` whose path starts with the document's name.
  public static func validate(documents: [String: JSONValue]) throws(DocumentProblem) {
    for (name, value) in documents.sorted(by: { $0.key < $1.key }) {
      do throws(DocumentProblem) { try validate(name: name, value: value) } catch {
        throw DocumentProblem(path: [.key(name)] + error.path, message: error.message)
      }
    }
  }

  /// Reads the value of the document `name` at the reader's position and checks it.
  ///
  /// - Throws: `JSONSyntaxError` at the offending value, with `in document "name": …`.
  static func read(named name: String, from reader: inout JSONReader) throws(JSONSyntaxError)
    -> JSONValue
  {
    reader.skipWhitespace()
    let start = reader.offset
    let value = try reader.readValue()
    do throws(DocumentProblem) { try validate(name: name, value: value) } catch {
      let offset = reader.offset(of: error.path, in: start) ?? start
      throw reader.error("in document \"\(name)\": \(error.message)", at: offset)
    }
    return value
  }

  /// Reads `weigh.json`'s `documents` object at the reader's position, checking each one.
  static func readAll(from reader: inout JSONReader) throws(JSONSyntaxError) -> [String: JSONValue]
  {
    reader.skipWhitespace()
    guard reader.peek() == 0x7B else { throw reader.error("expected an object") }
    try reader.beginObject()
    var documents: [String: JSONValue] = [:]
    while let key = try reader.nextKey() {
      let name = try reader.decode(key)
      if documents[name] != nil {
        throw reader.error("duplicate member \"\(name)\"", at: key.offset)
      }
      documents[name] = try read(named: name, from: &reader)
    }
    return documents
  }
}

extension JSONReader {
  /// The offset of the value at `path` inside the value that starts at `start`, or nil when
  /// the path does not lead anywhere (then the caller points at the start).
  func offset(of path: [DocumentProblem.Step], in start: Int) -> Int? {
    var walker = JSONReader(bytes: bytes, offset: start)
    do throws(JSONSyntaxError) {
      for step in path {
        switch step {
        case .key(let name):
          guard walker.peek() == 0x7B else { return nil }
          try walker.beginObject()
          var found = false
          while let key = try walker.nextKey() {
            if try walker.decode(key) == name {
              found = true
              break
            }
            try walker.skipValue()
          }
          guard found else { return nil }
        case .index(let index):
          guard walker.peek() == 0x5B else { return nil }
          try walker.beginArray()
          var position = 0
          var found = false
          while try walker.nextElement() {
            if position == index {
              found = true
              break
            }
            try walker.skipValue()
            position += 1
          }
          guard found else { return nil }
        }
      }
      walker.skipWhitespace()
      return walker.offset
    } catch {
      return nil
    }
  }
}
