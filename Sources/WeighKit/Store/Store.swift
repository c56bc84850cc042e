// Stand-in until the store engine lands: keeps everything in memory.

/// A small JSON value for store documents.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}

/// Where a store lives.
public enum StoreLocation: Equatable, Sendable {
  case directory(String)
  case memory
}

/// One change of a committed transaction.
public enum StoreChange: Equatable, Sendable {
  case putEntry(Entry)
  case removeEntry(id: Int)
  case setDocument(name: String, value: JSONValue)
}

/// A store that cannot be opened.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { message }
}

/// The app's durable data.
public final class Store {
  public private(set) var documents: [String: JSONValue] = [:]
  private var table: [Entry] = []

  public static func open(_ location: StoreLocation, lockTimeout: Double = 5) throws -> Store {
    Store()
  }

  public func entries() throws -> [Entry] { table }

  public func commit(_ changes: [StoreChange]) throws {
    for change in changes {
      switch change {
      case .putEntry(let entry):
        if let index = table.firstIndex(where: { $0.id == entry.id }) {
          table[index] = entry
        } else {
          table.append(entry)
          table.sort { $0.id < $1.id }
        }
      case .removeEntry(let id): table.removeAll { $0.id == id }
      case .setDocument(let name, let value): documents[name] = value
      }
    }
  }

  public func close() {}
}
