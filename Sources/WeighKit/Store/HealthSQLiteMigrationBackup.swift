import Foundation

/// The old file a migration to format 3 keeps beside the new one (docs/store.md, "Format
/// 2: a leaner row", "Format 3: a pair of type indexes per type present").
extension HealthSQLiteStorage {
  /// The bytes read at a time when the old file is copied, not linked.
  static let backupCopyChunk = 4 << 20

  /// Gives the database at `path` (its log checkpointed: the file alone is the database) a
  /// second name in `directory`, `first` (`health.sqlite.v1` or `.v2`; `first-2`, … when
  /// another file has that name; never replaced), durable; returns the name.
  ///
  /// A hard link: no byte is copied, and the migration's rename then leaves the old file
  /// under this name alone. A link that a killed migration left (the same file as `path`)
  /// is taken again. Where the file system has no links, or with `linking` false, the file
  /// is copied instead, 4 MiB at a time (memory stays bounded at any size), by a temporary
  /// file that is synced and renamed.
  static func keepOldFile(
    _ path: String, directory: String, name first: String, linking: Bool = true
  ) throws(StoreError) -> String {
    var name = first
    var counter = 2
    while StoreFileSystem.exists(StoreLocation.joinPath(directory, name)) {
      if linking, isSameFile(StoreLocation.joinPath(directory, name), path) {
        try StoreFileSystem.syncDirectory(directory)
        return name
      }
      name = first + "-\(counter)"
      counter += 1
    }
    let backup = StoreLocation.joinPath(directory, name)
    try StoreFileSystem.step(backup)
    if linking, link(path, backup) == 0 {
      try StoreFileSystem.syncDirectory(directory)
      return name
    }
    if linking, ![EXDEV, EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(errno) {
      throw StoreFileSystem.ioError(backup, "link \(path) to")
    }
    try copy(path, to: backup)
    return name
  }

  /// Copies the file at `path` to the new file `backup` (synced, the folder too).
  private static func copy(_ path: String, to backup: String) throws(StoreError) {
    guard let size = StoreFileSystem.size(path) else {
      throw StoreFileSystem.ioError(path, "read")
    }
    var failedRead = false
    try StoreFileSystem.replace(backup) { (write) throws(FileWriteError) in
      var buffer: [UInt8] = []
      var offset = 0
      while offset < size {
        let count = min(backupCopyChunk, size - offset)
        guard StoreFileSystem.read(path, at: offset, count: count, into: &buffer),
          buffer.count == count
        else {
          failedRead = true
          throw FileWriteError("cannot read \(path)")
        }
        try write(buffer)
        offset += count
      }
    }
    if failedRead { throw StoreFileSystem.ioError(path, "read") }
  }

  /// Whether the two paths name one file (the same device and inode).
  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var two = stat()
    guard stat(first, &one) == 0, stat(second, &two) == 0 else { return false }
    return one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}
