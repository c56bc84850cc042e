import Foundation
import GRDB

/// Keys of a rowid table that SQLite cannot read: a damaged page (a leaf, an interior page and
/// the leaves under it, or an overflow page of one row) between the rows read around it.
struct HealthSQLiteUnreadableSpan: Equatable, Sendable {
  /// The last key read before the damage, or nil when it came before every row read.
  var after: Int64?
  /// The first key read after it, or nil when nothing after it could be read.
  var before: Int64?

  /// Whether `key` lies in the span: after `after` and before `before`.
  func contains(_ key: Int64) -> Bool {
    (after.map { key > $0 } ?? true) && (before.map { key < $0 } ?? true)
  }
}

/// The rows of a rowid table read past the pages SQLite cannot read (`weigh check --repair`
/// of `health.sqlite`): a read that meets one goes on from the smallest key past it whose
/// row reads, found by seeks (the key is the rowid, so a seek goes down the interior pages
/// and touches no leaf but the one that holds, or would hold, the key sought: `pos >= 275`
/// reads the leaf of 275, where `pos > 274` reads that of 274 first).
///
/// Read inside one transaction, a damaged page's error was swallowed by the reading and
/// thrown again by the transaction's COMMIT: the repair failed, "database disk image is
/// malformed", whatever came before the page. These reads run each statement on its own.
enum HealthSQLiteReadableRows {
  /// What the first row with a key from a bound on is.
  enum Probe: Equatable {
    /// A row that reads, with its key.
    case row(Int64)
    /// There is none: the table ends before the bound.
    case end
    /// SQLite cannot read it (or the pages on its way).
    case unreadable
  }

  /// Reads the rows of `table` in the order of `key` (its rowid), each one's `selection`
  /// (whose first column is `key`) given to `body`; each span SQLite cannot read is given to
  /// `unreadable`, and the reading goes on past it.
  ///
  /// The smallest bound past a span is found by doubling the distance from the last key read
  /// until a row reads, then halving between the last bound that failed and the first that
  /// worked: about 2 log2(n) seeks for a span of n keys. Two damaged pages closer together
  /// than the first one's span is wide can hide the readable rows between them (a doubling
  /// or a halving that lands on the second passes them), so the keys between the last one
  /// read and the bound found are searched again from the bound down (`lastReadable`): a
  /// row found there is read, with what lies on either side of it, before the reading goes
  /// on from the bound.
  ///
  /// - Throws: what `body` throws, or SQLite's errors other than a damaged page.
  static func each(
    _ db: Database, table: String, key: String, selection: String,
    unreadable: (HealthSQLiteUnreadableSpan) -> Void, _ body: (Row) throws -> Void
  ) throws {
    try withoutActuallyEscaping(unreadable) { unreadable in
      try withoutActuallyEscaping(body) { body in
        let reading = Reading(
          db: db, table: table, key: key, selection: selection, unreadable: unreadable,
          body: body)
        try reading.read(after: nil, before: nil)
      }
    }
  }

  /// One reading of a table past its damaged pages: the table, and where its rows and spans go.
  private struct Reading {
    let db: Database
    let table: String
    let key: String
    let selection: String
    let unreadable: (HealthSQLiteUnreadableSpan) -> Void
    let body: (Row) throws -> Void

    /// Reads the rows with keys after `after` and before `before` (nil: from the first, to
    /// the last), in key order; a span that reaches `before` is given as ending there.
    func read(after: Int64?, before: Int64?) throws {
      // The bound of the current read: its rows have keys from it on (nil: every row).
      var bound: Int64?
      if let after {
        guard after < (before ?? Int64.max) else { return }
        bound = after + 1
      }
      while true {
        var last: Int64?
        var failure: (any Error)?
        do {
          let rows = try Row.fetchCursor(
            db, sql: query(table, key, selection, from: bound, before: before))
          while let row = try rows.next() {
            if case .int64(let read) = (row[0] as DatabaseValue).storage {
              last = max(last ?? read, read)
            }
            do { try body(row) } catch {
              failure = error
              throw error
            }
          }
          return
        } catch let error as DatabaseError where failure == nil && isDamage(error) {
          // The reading goes on past the damage.
        }
        // A bound that failed before any row read: the span is of the keys from it on, and
        // the next bound comes after it.
        let spanAfter = last ?? bound.map { $0 &- 1 }
        let (next, probe) = try nextBound(
          db, table, key, selection, after: last ?? bound, before: before)
        // Rows the search may have passed, below the bound found: the last of them, with
        // what lies before it, is read first, and the reading goes on from it; a row not
        // past the current bound would be no progress (SQLite's answers disagreed) and is
        // not taken.
        if let hidden = try lastReadable(above: spanAfter, below: next), hidden > bound ?? 0 {
          try read(after: spanAfter, before: hidden)
          bound = hidden
          continue
        }
        switch probe {
        case .row(let first):
          unreadable(HealthSQLiteUnreadableSpan(after: spanAfter, before: first))
          bound = next
        case .end:
          unreadable(HealthSQLiteUnreadableSpan(after: spanAfter, before: before))
          return
        case .unreadable:
          unreadable(HealthSQLiteUnreadableSpan(after: spanAfter, before: nil))
          return
        }
      }
    }

    /// The largest key above `low` (nil: any) and below `high` whose row reads, searched
    /// down from `high` past the pages SQLite cannot read (doubling the distance, then
    /// halving, as `nextBound` does upwards); nil when none is found.
    func lastReadable(above low: Int64?, below high: Int64) throws -> Int64? {
      let floor = low ?? 0
      guard high > floor &+ 1 else { return nil }
      // `failed` is a bound from which the read down does not work (or `high`, not tried).
      var failed = high
      var distance: Int64 = 1
      var works: (bound: Int64, probe: Probe)?
      while works == nil {
        let (room, overflow) = failed.subtractingReportingOverflow(floor)
        let bound = !overflow && room > distance ? failed - distance : floor &+ 1
        let found = try probeDown(from: bound, above: floor)
        if found != .unreadable {
          works = (bound, found)
        } else if bound == floor &+ 1 {
          return nil
        } else {
          failed = bound
          distance = distance.multipliedReportingOverflow(by: 2).partialValue
          if distance <= 0 { distance = Int64.max }
        }
      }
      var found = works!
      while gap(found.bound, failed) > 1 {
        let middle = found.bound &+ Int64(truncatingIfNeeded: gap(found.bound, failed) / 2)
        let probed = try probeDown(from: middle, above: floor)
        if probed == .unreadable {
          failed = middle
        } else {
          found = (middle, probed)
        }
      }
      guard case .row(let row) = found.probe else { return nil }
      return row
    }

    /// What the last row with a key above `floor` and up to `bound` is.
    private func probeDown(from bound: Int64, above floor: Int64) throws -> Probe {
      let sql =
        "SELECT \(selection) FROM \(table) WHERE \(key) > \(floor) AND \(key) <= \(bound) "
        + "ORDER BY \(key) DESC LIMIT 1"
      return try HealthSQLiteReadableRows.first(db, sql: sql)
    }
  }

  /// Whether `error` is SQLite's word for a page it cannot read.
  static func isDamage(_ error: DatabaseError) -> Bool {
    error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
  }

  /// The smallest bound after `after` (nil: searched from 1, keys before 1 are not
  /// positions weigh gives) and below `before` (nil: up to `Int64.max`) from which the first
  /// row reads, and what that row is (`.end` when no row is left before `before` or the
  /// table's end, `.unreadable` when no bound up to `Int64.max` works).
  static func nextBound(
    _ db: Database, _ table: String, _ key: String, _ selection: String, after: Int64?,
    before: Int64? = nil
  ) throws -> (bound: Int64, probe: Probe) {
    let limit = before ?? Int64.max
    func probe(_ bound: Int64) throws -> Probe {
      if let before, bound >= before { return .end }
      return try Self.probe(db, table, key, selection, from: bound, before: before)
    }
    // Doubling: `failed` is a bound that does not work (or `after`, not tried), `works` one
    // that does.
    var failed = after ?? 0
    guard failed < limit else { return (limit, .end) }
    var distance: Int64 = 1
    var works: (bound: Int64, probe: Probe)?
    while works == nil {
      let (sum, overflow) = failed.addingReportingOverflow(distance)
      let bound = overflow || sum > limit ? limit : sum
      let found = try probe(bound)
      if found != .unreadable {
        works = (bound, found)
      } else if bound == limit {
        return (bound, .unreadable)
      } else {
        failed = bound
        distance = distance.multipliedReportingOverflow(by: 2).partialValue
        if distance <= 0 { distance = Int64.max }
      }
    }
    // Halving between the two.
    var found = works!
    while gap(failed, found.bound) > 1 {
      // Half the gap between two Int64 values is below 2^63.
      let middle = failed &+ Int64(truncatingIfNeeded: gap(failed, found.bound) / 2)
      let probed = try probe(middle)
      if probed == .unreadable {
        failed = middle
      } else {
        found = (middle, probed)
      }
    }
    return found
  }

  /// How far `high` is after `low` (`high` >= `low`), without overflow.
  private static func gap(_ low: Int64, _ high: Int64) -> UInt64 {
    UInt64(bitPattern: high &- low)
  }

  /// What the first row of `table` with a key from `bound` on (and below `before`, when
  /// given) is (its whole `selection` read, so that a row whose overflow page is damaged
  /// does not read).
  static func probe(
    _ db: Database, _ table: String, _ key: String, _ selection: String, from bound: Int64,
    before: Int64? = nil
  ) throws -> Probe {
    try first(db, sql: query(table, key, selection, from: bound, before: before) + " LIMIT 1")
  }

  /// What the first row `sql` selects is.
  private static func first(_ db: Database, sql: String) throws -> Probe {
    do {
      let rows = try Row.fetchCursor(db, sql: sql)
      guard let row = try rows.next() else { return .end }
      guard case .int64(let found) = (row[0] as DatabaseValue).storage else { return .unreadable }
      return .row(found)
    } catch let error as DatabaseError where isDamage(error) {
      return .unreadable
    }
  }

  /// The query of the rows from `bound` on (nil: all) and before `before` (nil: to the
  /// end), in key order.
  private static func query(
    _ table: String, _ key: String, _ selection: String, from bound: Int64?, before: Int64?
  ) -> String {
    let conditions: [String] =
      (bound.map { ["\(key) >= \($0)"] } ?? []) + (before.map { ["\(key) < \($0)"] } ?? [])
    let range = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return "SELECT \(selection) FROM \(table)\(range) ORDER BY \(key)"
  }
}
