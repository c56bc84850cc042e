import Foundation
import HealthSim
import PropertyBased
import Testing

/// An app that mirrors body mass through paged anchored queries, as weigh's `sync` does.
final class Mirror {
  var anchor: QueryAnchor?
  var samples: [UUID: HealthSample] = [:]
  var anchors: [QueryAnchor] = []

  func sync(_ store: HealthStore, limit: Int) throws {
    while true {
      let page = try store.anchoredResult(type: .bodyMass, anchor: anchor, limit: limit)
      if let anchor, page.newAnchor < anchor {
        Issue.record("anchor went back from \(anchor) to \(page.newAnchor)")
      }
      anchors.append(page.newAnchor)
      for change in page.changes {
        switch change {
        case .added(let sample, _): samples[sample.uuid!] = sample
        case .deleted(let object, _): samples[object.uuid] = nil
        }
      }
      anchor = page.newAnchor
      if page.changes.isEmpty || limit == 0 { return }
    }
  }
}

@Suite("Anchored-query properties over random histories")
struct AnchorPropertyTests {
  /// Applies one random operation coded as an integer: save, delete, replace, purge, read.
  func perform(
    _ code: Int, on store: HealthStore, mirror: Mirror, limit: Int, missed: inout Set<UUID>
  ) throws {
    let live = store.allSamples(of: .bodyMass)
    switch code % 6 {
    case 0, 1:
      try store.save([weight(60 + Double(code % 40), at: Double(code))], as: scaleSource)
    case 2:
      if !live.isEmpty { try store.deleteAsOwner([live[code % live.count].uuid!]) }
    case 3:
      try store.save([
        weight(70, at: Double(code % 7), syncID: "id-\(code % 3)", version: Double(code % 5))
      ])
    case 4:
      let before = Set(store.deletedObjectRecords(of: .bodyMass).map(\.uuid))
      let unread = Set(
        try store.anchoredResult(type: .bodyMass, anchor: mirror.anchor).deletedObjects.map(\.uuid))
      if code % 2 == 0 {
        store.purgeDeletedObjects(keepingNewest: code % 3)
      } else {
        store.purgeDeletedObjects()
      }
      let after = Set(store.deletedObjectRecords(of: .bodyMass).map(\.uuid))
      missed.formUnion(before.subtracting(after).intersection(unread))
    default:
      try mirror.sync(store, limit: limit)
    }
  }

  @Test(
    "anchors never go back; paging with any limit equals no limit; a mirror equals the live samples except purged-before-read deletions"
  )
  func anchoredProperties() async {
    await propertyCheck(
      count: 150, input: Gen.int(in: 0...600).array(of: 0...60), Gen.int(in: 1...7)
    ) { codes, limit in
      failingOnThrow {
        let store = makeStore()
        let mirror = Mirror()
        var missed = Set<UUID>()
        var latest = store.latestAnchor
        for code in codes {
          try perform(code, on: store, mirror: mirror, limit: limit, missed: &missed)
          #expect(store.latestAnchor >= latest)
          latest = store.latestAnchor
        }
        try mirror.sync(store, limit: limit)
        #expect(mirror.anchors == mirror.anchors.sorted())

        let unpaged = try store.anchoredResult(type: .bodyMass, anchor: nil)
        let paging = Mirror()
        var pages: [AnchoredChange] = []
        while true {
          let page = try store.anchoredResult(type: .bodyMass, anchor: paging.anchor, limit: limit)
          if page.changes.isEmpty { break }
          pages += page.changes
          paging.anchor = page.newAnchor
        }
        #expect(pages == unpaged.changes)

        let live = Set(store.allSamples(of: .bodyMass).map(\.uuid!))
        let mirrored = Set(mirror.samples.keys)
        #expect(live.isSubset(of: mirrored))
        #expect(mirrored.subtracting(live).isSubset(of: missed))
      }
    }
  }
}
