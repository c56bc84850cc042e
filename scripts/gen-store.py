#!/usr/bin/env python3
"""Write a weigh store of N entries directly in the store's format (for benchmarks).

usage: scripts/gen-store.py N DIR
       scripts/gen-store.py --journal BYTES DIR

The first form: DIR gets weigh.json, entries.json (one entry per line), an empty journal.jsonl
and journal.ack, as a compaction would leave them (store format 2, with checksums). Entries are ten minutes apart from 2000-01-01 (a million
end in 2019, so none lies in the future), weights around 70 kg.

The second form fills the journal of the store in DIR with `log`-sized transactions (one new
entry each) up to at most BYTES, as the commits since the last compaction would leave it.
"""
import json
import os
import random
import sys
import time
import zlib


def checksummed(text: str) -> str:
    """A journal or ack line: the text (an object without its closing brace) with its CRC-32."""
    return text + ',"crc":"%08x"}' % zlib.crc32(text.encode())


def journal_header(base: int) -> str:
    return checksummed('{"format":"weigh-journal","version":2,"base":%d' % base) + "\n"


def ack(base: int, sequence: int, length: int, next_id: int) -> str:
    line = checksummed('{"format":"weigh-ack","version":1,"base":%d,"seq":%d,"length":%d,'
                       '"next":{"entries":%d}' % (base, sequence, length, next_id))
    return line + " " * (511 - len(line)) + "\n"


def fill_journal(limit: int, directory: str) -> None:
    with open(os.path.join(directory, "weigh.json")) as manifest_file:
        manifest = json.load(manifest_file)
    next_id = manifest["tables"]["entries"]["nextID"]
    base = sequence = manifest["sequence"]
    instant = 1_600_000_000  # 2020-09-13, after every generated row
    header = journal_header(base)
    size = len(header)
    with open(os.path.join(directory, "journal.jsonl"), "w") as out:
        out.write(header)
        while True:
            row = {"id": next_id, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant)),
                   "kg": 70.5, "origin": "manual", "source": "weigh", "rev": 1}
            body = json.dumps({"seq": sequence + 1, "changes": [{"put": "entries", "row": row}]},
                              separators=(",", ":"))
            line = checksummed(body[:-1]) + "\n"
            if size + len(line) > limit:
                break
            out.write(line)
            sequence += 1
            size += len(line)
            next_id += 1
            instant += 600
    with open(os.path.join(directory, "journal.ack"), "w") as out:
        out.write(ack(base, sequence, size, next_id))


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
    rows_sum = 0
    with open(os.path.join(directory, "entries.json"), "w") as out:
        header = '{"format":"weigh-entries","version":1,"sequence":%d' % sequence
        out.write(header + ',"crc":"%08x","rows":[' % zlib.crc32(header.encode()))
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
            text = json.dumps(row, separators=(",", ":"), ensure_ascii=False)
            crc = zlib.crc32(text.encode())
            rows_sum += crc
            out.write("\n" if index == 1 else ",\n")
            out.write('{"crc":"%08x","row":%s}' % (crc, text))
        out.write('\n],"count":%d,"sum":"%016x"}\n' % (count, rows_sum % (1 << 64)))
    manifest = {
        "format": "weigh-store",
        "version": 2,
        "sequence": sequence,
        "tables": {"entries": {"file": "entries.json", "nextID": count + 1}},
        "documents": {},
    }
    text = json.dumps(manifest, indent=2)[:-2]  # without the closing "\n}"
    with open(os.path.join(directory, "weigh.json"), "w") as out:
        out.write(text + ',\n  "crc":"%08x"\n}\n' % zlib.crc32(text.encode()))
    header = journal_header(sequence)
    with open(os.path.join(directory, "journal.jsonl"), "w") as out:
        out.write(header)
    with open(os.path.join(directory, "journal.ack"), "w") as out:
        out.write(ack(sequence, sequence, len(header), count + 1))

if __name__ == "__main__":
    main()
