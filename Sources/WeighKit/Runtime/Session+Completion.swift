import HealthSim

extension Session {
  /// What Tab completion offers from this session: its entries and Health samples, unit,
  /// clock, and `directory` for file names.
  public func completionData(directory: String) -> CompletionData {
    var data = CompletionData()
    data.unit = unit
    data.clock = zone
    data.now = now
    data.directory = directory
    data.entries = { [self] in
      withStoreGlance { () throws(Diagnostic) in
        let all = try entries()
        func describe(_ entry: Entry) -> String {
          "\(zone.minuteText(entry.instant))  \(unit.format(kilograms: entry.kilograms))"
        }
        var candidates = all.map { CompletionCandidate("#\($0.id)", detail: describe($0)) }
        // `last` is what list shows last: the newest instant, on a tie the highest number.
        if let newest = all.max(by: { ($0.instant, $0.id) < ($1.instant, $1.id) }) {
          candidates.append(
            CompletionCandidate("last", detail: "#\(newest.id)  \(describe(newest))"))
        } else {
          candidates.append(CompletionCandidate("last", detail: "the newest entry (none yet)"))
        }
        return candidates
      }
    }
    data.samples = { [self] in
      withStoreGlance { () throws(Diagnostic) in
        let health = try health()
        let text = SampleText(unit: unit)
        let all = SampleType.allCases.flatMap { health.allSamples(of: $0) }
          .sorted { $0.startDate < $1.startDate }
        func describe(_ sample: HealthSample) -> String {
          let kind = HealthListCommand.kinds.first { $0.1 == sample.type }?.0 ?? "\(sample.type)"
          return "\(kind) \(text.value(of: sample))  \(zone.minuteText(sample.startInstant))"
        }
        var candidates = all.compactMap { sample in
          sample.uuid.map { CompletionCandidate($0.shortText, detail: describe(sample)) }
        }
        let last = try? HealthDeleteCommand.resolve(
          "last", in: health, at: SourceSpan(file: "", line: 0, text: "", start: 0, end: 0))
        candidates.append(
          CompletionCandidate(
            "last",
            detail: last.map { "\($0.uuid?.shortText ?? "")  \(describe($0))" }
              ?? "the newest sample (none yet)"))
        return candidates
      }
    }
    return data
  }

  /// Reads the store for completion: between REPL commands only when its lock is free at
  /// once (completion never waits for another process); nothing when it cannot be read.
  private func withStoreGlance(
    _ read: () throws(Diagnostic) -> [CompletionCandidate]
  ) -> [CompletionCandidate] {
    guard isStoreReleased else { return (try? read()) ?? [] }
    guard (try? acquireStore(lockTimeout: 0)) != nil else { return [] }
    defer { releaseStore() }
    return (try? read()) ?? []
  }
}

extension Session {
  /// Shows `lines` in the pager when stdout is a terminal and the output is text; false
  /// when they are still to be printed.
  func page(_ lines: [String]) -> Bool {
    guard renderContext.format == .text else { return false }
    return sink.page(lines.map { TerminalText.escaped($0) + "\n" }.joined())
  }
}
