import GRDB
import HealthSim

/// The layout of a `health.sqlite` file, from its version (docs/store.md, "Format 2: a
/// leaner row"). This weigh writes format 2; it reads format 1 only in a store opened
/// read-only, which is not migrated (its files cannot be written). The two differ in the
/// record's selection and in how its type is kept (text or code); everything else is one
/// code path.
enum HealthSQLiteLayout: Equatable {
  case format1
  case format2

  /// The layout of `version` (`PRAGMA user_version`), nil for one no weigh wrote.
  init?(version: Int64) {
    switch version {
    case 1: self = .format1
    case HealthSQLiteFormat2.version: self = .format2
    default: return nil
    }
  }
}

extension HealthSQLiteBinding {
  /// Binds `type` as `layout`'s `record.type` holds it: its name, or its code.
  mutating func bind(_ index: CInt, type: SampleType, _ layout: HealthSQLiteLayout) {
    switch layout {
    case .format1: bind(index, text: type.rawValue)
    case .format2: bind(index, integer: HealthSQLiteTypeCode.code(type))
    }
  }
}
