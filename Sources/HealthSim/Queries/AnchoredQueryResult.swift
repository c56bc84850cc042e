/// One change an anchored query returns, in position order.
public enum AnchoredChange: Hashable, Sendable {
  /// A live sample added after the anchor.
  case added(HealthSample, anchor: QueryAnchor)
  /// A sample deleted after the anchor.
  case deleted(DeletedObject, anchor: QueryAnchor)

  /// The change's position.
  public var anchor: QueryAnchor {
    switch self {
    case .added(_, let anchor), .deleted(_, let anchor): return anchor
    }
  }
}

/// What an anchored query returns: samples and deleted objects after the anchor.
public struct AnchoredQueryResult: Hashable, Sendable {
  /// Samples and deletions interleaved in position order, cut at the limit.
  public let changes: [AnchoredChange]
  /// The position of the last change returned, or the input anchor when none (A6 knob).
  public let newAnchor: QueryAnchor

  /// A result: changes in position order and the anchor to read after next.
  public init(changes: [AnchoredChange], newAnchor: QueryAnchor) {
    self.changes = changes
    self.newAnchor = newAnchor
  }

  /// The added samples in position order.
  public var samples: [HealthSample] {
    changes.compactMap { if case .added(let sample, _) = $0 { return sample } else { return nil } }
  }

  /// The deleted objects in position order.
  public var deletedObjects: [DeletedObject] {
    changes.compactMap {
      if case .deleted(let object, _) = $0 { return object } else { return nil }
    }
  }
}
