import Foundation
import GRDB

/// Keys of a rowid table that SQLite cannot read: a damaged page (a leaf, an interior page and
/// the leaves under it, or an overflow page of one row) between the rows read around it.
struct HealthSQLiteUnreadableSpan: Equatable, Sendable {
  /// The last key read before the damage, or nil when it came before every row read.
  var after: Int64?
  /// The first key read after it, or nil when nothing after it could be read.
  var before: Int64?
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
  /// than the first one's span is wide can hide the readable rows between them (the halving
  /// may land past the second): a damaged leaf's neighbours are about its own width, so
  /// this does not happen for two damaged leaves.
  ///
  /// - Throws: what `body` throws, or SQLite's errors other than a damaged page.
  static func each(
    _ db: Database, table: String, key: String, selection: String,
    unreadable: (HealthSQLiteUnreadableSpan) -> Void, _ body: (Row) throws -> Void
  ) throws {
    // The bound of the current read: its rows have keys from it on (nil: every row).
    var bound: Int64?
    while true {
      var last: Int64?
      var failure: (any Error)?
      do {
        let rows = try Row.fetchCursor(db, sql: query(table, key, selection, from: bound))
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
      let after = last ?? bound.map { $0 &- 1 }
      let (next, probe) = try nextBound(db, table, key, selection, after: last ?? bound)
      switch probe {
      case .row(let first):
        unreadable(HealthSQLiteUnreadableSpan(after: after, before: first))
        bound = next
      case .end, .unreadable:
        unreadable(HealthSQLiteUnreadableSpan(after: after, before: nil))
        return
      }
    }
  }

  /// Whether `error` is SQLite's word for a page it cannot read.
  static func isDamage(_ error: DatabaseError) -> Bool {
    error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
  }

  /// The smallest bound after `after` (nil: searched from 1, keys before 1 are not
  /// positions weigh gives) from which the first row reads, and what that row is (`.end`
  /// when the table ends there, `.unreadable` when no bound up to `Int64.max` works).
  static func nextBound(
    _ db: Database, _ table: String, _ key: String, _ selection: String, after: Int64?
  ) throws -> (bound: Int64, probe: Probe) {
    func probe(_ bound: Int64) throws -> Probe {
      try Self.probe(db, table, key, selection, from: bound)
    }
    // Doubling: `failed` is a bound that does not work (or `after`, not tried), `works` one
    // that does.
    var failed = after ?? 0
    var distance: Int64 = 1
    var works: (bound: Int64, probe: Probe)?
    while works == nil {
      let (sum, overflow) = failed.addingReportingOverflow(distance)
      let bound = overflow ? Int64.max : sum
      let found = try probe(bound)
      if found != .unreadable {
        works = (bound, found)
      } else if bound == Int64.max {
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

  /// What the first row of `table` with a key from `bound` on is (its whole `selection`
  /// read, so that a row whose overflow page is damaged does not read).
  static func probe(
    _ db: Database, _ table: String, _ key: String, _ selection: String, from bound: Int64
  ) throws -> Probe {
    do {
      let rows = try Row.fetchCursor(
        db, sql: query(table, key, selection, from: bound) + " LIMIT 1")
      guard let row = try rows.next() else { return .end }
      guard case .int64(let found) = (row[0] as DatabaseValue).storage else { return .unreadable }
      return .row(found)
    } catch let error as DatabaseError where isDamage(error) {
      return .unreadable
    }
  }

  /// The query of the rows from `bound` on (nil: all), in key order.
  private static func query(_ table: String, _ key: String, _ selection: String, from bound: Int64?)
    -> String
  {
    let range = bound.map { " WHERE \(key) >= \($0)" } ?? ""
    return "SELECT \(selection) FROM \(table)\(range) ORDER BY \(key)"
  }
}
