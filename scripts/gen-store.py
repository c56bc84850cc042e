#!/usr/bin/env python3
"""Write a weigh store of N entries directly in the store's format (for benchmarks).

usage: scripts/gen-store.py N DIR
       scripts/gen-store.py --journal BYTES DIR

The first form: DIR gets weigh.json, entries.json (one entry per line) and an empty journal.jsonl, as a
compaction would leave them. Entries are ten minutes apart from 2000-01-01 (a million
end in 2019, so none lies in the future), weights around 70 kg.

The second form fills the journal of the store in DIR with `log`-sized transactions (one new
entry each) up to at most BYTES, as the commits since the last compaction would leave it.
"""
import json
import os
import random
import sys
import time


JOURNAL_HEADER = '{"format":"weigh-journal","version":1}\n'


def fill_journal(limit: int, directory: str) -> None:
    with open(os.path.join(directory, "weigh.json")) as manifest_file:
        manifest = json.load(manifest_file)
    next_id = manifest["tables"]["entries"]["nextID"]
    sequence = manifest["sequence"]
    instant = 1_600_000_000  # 2020-09-13, after every generated row
    size = len(JOURNAL_HEADER)
    with open(os.path.join(directory, "journal.jsonl"), "w") as out:
        out.write(JOURNAL_HEADER)
        while True:
            sequence += 1
            row = {"id": next_id, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant)),
                   "kg": 70.5, "origin": "manual", "source": "weigh", "rev": 1}
            line = json.dumps({"seq": sequence, "changes": [{"put": "entries", "row": row}]},
                              separators=(",", ":")) + "\n"
            if size + len(line) > limit:
                break
            out.write(line)
            size += len(line)
            next_id += 1
            instant += 600


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--journal":
        fill_journal(int(sys.argv[2]), sys.argv[3])
        return
    if len(sys.argv) != 3:
        sys.exit("usage: gen-store.py N DIR | gen-store.py --journal BYTES DIR")
    count = int(sys.argv[1])
    directory = sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(1)
    start = 946_684_800  # 2000-01-01T00:00:00Z
    sequence = 1
    with open(os.path.join(directory, "entries.json"), "w") as out:
        out.write('{"format":"weigh-entries","version":1,"sequence":%d,"rows":[' % sequence)
        for index in range(1, count + 1):
            instant = start + index * 600
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant))
            kg = round(70 + rng.gauss(0, 5), rng.choice((1, 2, 2, 3)))
            kind = rng.random()
            if kind < 0.7:
                row = {"id": index, "at": at, "kg": kg, "origin": "manual", "source": "weigh", "rev": 1}
            elif kind < 0.95:
                row = {"id": index, "at": at, "kg": kg, "origin": "health", "source": "Withings",
                       "rev": 1, "healthUUID": "%08X-0000-4000-8000-%012X" % (index, index)}
            else:
                row = {"id": index, "at": at, "kg": kg, "origin": "import", "source": "openScale",
                       "note": "after run", "rev": 2}
            out.write("\n" if index == 1 else ",\n")
            out.write(json.dumps(row, separators=(",", ":"), ensure_ascii=False))
        out.write("\n]}\n")
    manifest = {
        "format": "weigh-store",
        "version": 1,
        "sequence": sequence,
        "tables": {"entries": {"file": "entries.json", "nextID": count + 1}},
        "documents": {},
    }
    with open(os.path.join(directory, "weigh.json"), "w") as out:
        json.dump(manifest, out, indent=2)
        out.write("\n")
    with open(os.path.join(directory, "journal.jsonl"), "w") as out:
        out.write(JOURNAL_HEADER)


if __name__ == "__main__":
    main()
