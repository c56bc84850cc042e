extension Store {
  /// Verifies every file of the store at `location` completely — every line of every table
  /// and of the journal — without the lock and without changing anything; works on a store
  /// that `open` refuses. An empty result means the store is sound.
  ///
  /// - Parameter tables: codecs of tables beyond the built-in `entries`.
  /// - Complexity: O(total size of the store's files).
  public static func check(
    _ location: StoreLocation, tables extraTables: [any StoreTableCodec.Type] = []
  ) -> [StoreFinding] {
    guard case .directory(let directory) = location else { return [] }
    func path(_ name: String) -> String { StoreLocation.joinPath(directory, name) }
    var findings: [StoreFinding] = []
    guard StoreFileSystem.exists(directory) else {
      return [StoreFinding(.error, file: directory, message: "no store here; check the path")]
    }

    var manifest: StoreManifest?
    do throws(StoreError) {
      if let bytes = try StoreFileSystem.read(path(StoreManifest.fileName)) {
        manifest = try StoreManifest.decode(bytes, path: path(StoreManifest.fileName))
      } else {
        findings.append(
          StoreFinding(
            .error, file: path(StoreManifest.fileName),
            message: "weigh.json is missing; this is not a weigh store, or it was damaged"))
      }
    } catch {
      findings.append(StoreFinding(error))
    }

    var storages: [String: any AnyTableStorage] = [:]
    for codec in builtInTables + extraTables {
      storages[codec.tableName] = makeCheckedStorage(codec)
      if let finding = checkTable(codec, path: path(codec.tableName + ".json"), manifest: manifest)
      {
        findings.append(finding)
      }
    }

    let snapshotNames =
      [StoreManifest.fileName, StoreJournal.fileName]
      + (builtInTables + extraTables).map { $0.tableName + ".json" }
    for name in snapshotNames where StoreFileSystem.exists(path(name + ".tmp")) {
      findings.append(
        StoreFinding(
          .note, file: path(name + ".tmp"),
          message:
            "a temporary file left by an interrupted compaction; it is ignored and "
            + "overwritten by the next one"))
    }

    let journalPath = path(StoreJournal.fileName)
    do throws(StoreError) {
      let bytes = try StoreFileSystem.read(journalPath) ?? []
      let contents = try StoreJournal.parse(bytes, path: journalPath) { storages[$0] }
      if contents.tornLength > 0 {
        let line = bytes[0..<contents.completeLength].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        findings.append(
          StoreFinding(
            .note, file: journalPath, line: line, column: 1,
            message:
              "the last line is an interrupted commit that was never acknowledged; "
              + "the next change removes it"))
      }
    } catch {
      findings.append(StoreFinding(error))
    }
    return findings
  }

  /// Verifies this store's files completely; see `Store.check(_:tables:)`. Memory stores
  /// have nothing to check.
  public func check() -> [StoreFinding] {
    Store.check(location, tables: extraTableCodecs)
  }

  private static func makeCheckedStorage<Codec: StoreTableCodec>(
    _ codec: Codec.Type
  ) -> any AnyTableStorage {
    TableStorage<Codec>(empty: true)
  }

  private static func checkTable<Codec: StoreTableCodec>(
    _ codec: Codec.Type, path: String, manifest: StoreManifest?
  ) -> StoreFinding? {
    do throws(StoreError) {
      if try TableFile<Codec>.read(path: path) == nil,
        manifest?.tables[Codec.tableName]?["file"] != nil
      {
        return StoreFinding(
          .error, file: path, message: "the table file is missing; restore it from a backup")
      }
      return nil
    } catch {
      return StoreFinding(error)
    }
  }
}
