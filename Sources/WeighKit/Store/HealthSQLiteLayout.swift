import GRDB
import HealthSim

/// The layout of a `health.sqlite` file, from its version (docs/store.md, "Format 3: a pair
/// of type indexes per type present"). This weigh makes format 3; it writes format 2 too
/// (the same rows, with the shared type indexes), reads format 1 only in a store opened
/// read-only, which is not migrated (its files cannot be written). Formats 1 and 2 differ
/// in the record's selection and in how its type is kept (text or code); formats 2 and 3
/// only in the type indexes, and so in the SQL of the statements by type. Everything else
/// is one code path.
enum HealthSQLiteLayout: Equatable {
  case format1
  case format2
  case format3

  /// The layout of `version` (`PRAGMA user_version`), nil for one no weigh wrote.
  init?(version: Int64) {
    switch version {
    case 1: self = .format1
    case HealthSQLiteFormat2.version: self = .format2
    case HealthSQLiteFormat3.version: self = .format3
    default: return nil
    }
  }

  /// Whether a record is format 2's row (its columns, an origin, `extra`, one checksum).
  var hasRowParts: Bool { self != .format1 }
}

extension HealthSQLiteBinding {
  /// Binds `type` as `layout`'s `record.type` holds it: its name, or its code. Format 3's
  /// statements by type name it as a literal (a partial index serves only those) and
  /// number their other parameters from 2 (`HealthSQLiteStatement.sql(_:typeCode:)`):
  /// nothing is bound.
  mutating func bind(_ index: CInt, type: SampleType, _ layout: HealthSQLiteLayout) {
    switch layout {
    case .format1: bind(index, text: type.rawValue)
    case .format2: bind(index, integer: HealthSQLiteTypeCode.code(type))
    case .format3: break
    }
  }
}
