/// A value in one of the store's named documents that weigh cannot use: a wrong type, an
/// unknown word, or a number out of its range. `path` leads from the document to the value,
/// so that the reader of the file can point at it (`StoreDocuments.read`).
public struct DocumentProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// One step from a JSON value to one inside it.
  public enum Step: Equatable, Sendable, CustomStringConvertible {
    /// The member with this name.
    case key(String)
    /// The array element at this index.
    case index(Int)

    /// `.anchor` or `[2]`.
    public var description: String {
      switch self {
      case .key(let name): ".\(name)"
      case .index(let index): "[\(index)]"
      }
    }
  }

  /// From the document to the offending value (empty: the document itself).
  public var path: [Step]
  /// What is wrong, lower case (`"anchor" must be a whole number …`).
  public var message: String

  /// A problem at `path`.
  public init(path: [Step], message: String) {
    self.path = path
    self.message = message
  }

  /// `.settings.height_m: "height_m" must be a number`.
  public var description: String {
    path.map(\.description).joined() + ": " + message
  }
}
