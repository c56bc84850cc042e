#!/usr/bin/env python3
"""Makes one page of a store's health.sqlite unreadable to SQLite, for trying
`weigh check --repair` on it (docs/store.md, "Checking and repairing health.sqlite").

    .build/debug/weigh-bench health-store /tmp/leaf24-data/s 20000
    python3 scripts/damage-health-page.py /tmp/leaf24-data/s leaf 2
    .build/debug/weigh --store /tmp/leaf24-data/s check --repair

PAGE is `leaf N` (the N-th leaf of the table in key order, from 1; `leaf -1` the last),
`interior N` (the N-th interior page under the root), or `root`. Four bytes 0xFF are written
over the page's header (its first freeblock and cell count), so SQLite reads it as
"database disk image is malformed". Prints the page, its offset and, for a leaf, the first
and last keys (positions) on it. The file must have no log with pages in it (close weigh
first; a log of zero bytes is fine).
"""

import argparse
import os
import sqlite3
import struct


def varint(data, at):
    """SQLite's variable-length integer at `at`: (value, next offset)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def page(data, number, size):
    start = (number - 1) * size
    # Page 1 starts with the file's 100-byte header.
    return data[start:start + size], (100 if number == 1 else 0)


def walk(data, number, size, interior, leaves):
    """Appends the table b-tree's pages under `number`, leaves in key order."""
    bytes_, header = page(data, number, size)
    kind = bytes_[header]
    cells = struct.unpack(">H", bytes_[header + 3:header + 5])[0]
    if kind == 13:
        keys = []
        pointers = header + 8
        for i in range(cells):
            cell = struct.unpack(">H", bytes_[pointers + 2 * i:pointers + 2 * i + 2])[0]
            _, at = varint(bytes_, cell)
            key, _ = varint(bytes_, at)
            keys.append(key)
        leaves.append((number, min(keys) if keys else None, max(keys) if keys else None))
        return
    if kind != 5:
        raise SystemExit(f"page {number} is not a table b-tree page (type {kind})")
    pointers = header + 12
    children = []
    for i in range(cells):
        cell = struct.unpack(">H", bytes_[pointers + 2 * i:pointers + 2 * i + 2])[0]
        children.append(struct.unpack(">I", bytes_[cell:cell + 4])[0])
    children.append(struct.unpack(">I", bytes_[header + 8:header + 12])[0])
    for child in children:
        child_kind = page(data, child, size)[0][0]
        before = len(leaves)
        walk(data, child, size, interior, leaves)
        if child_kind == 5:
            under = [leaf for leaf in leaves[before:] if leaf[1] is not None]
            interior.append((child, len(leaves) - before, under[0][1], under[-1][2]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="the store's directory")
    parser.add_argument("kind", choices=["leaf", "interior", "root"])
    parser.add_argument("n", nargs="?", type=int, default=1)
    parser.add_argument("--table", default="record")
    args = parser.parse_args()
    path = os.path.join(args.store, "health.sqlite")
    log = path + "-wal"
    if os.path.exists(log) and os.path.getsize(log) > 0:
        raise SystemExit(f"{log} holds pages: close weigh (or checkpoint) first")
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    root = connection.execute(
        "SELECT rootpage FROM sqlite_schema WHERE name = ?", (args.table,)).fetchone()[0]
    size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    with open(path, "rb") as file:
        data = file.read()
    interior, leaves = [], []
    walk(data, root, size, interior, leaves)
    if args.kind == "root":
        target, keys = root, None
    elif args.kind == "interior":
        if not interior:
            raise SystemExit("the table has no interior page under its root")
        target, count, first, last = interior[args.n - 1 if args.n > 0 else args.n]
        keys = (first, last)
        print(f"{count} leaves under it")
    else:
        number, first, last = leaves[args.n - 1 if args.n > 0 else args.n]
        target, keys = number, (first, last)
    offset = (target - 1) * size
    with open(path, "r+b") as file:
        file.seek(offset + 1)
        file.write(b"\xff\xff\xff\xff")
    print(f"page {target} at offset {offset} of {len(leaves)} leaves, "
          f"{len(interior)} interior pages under the root {root}")
    if keys:
        print(f"keys {keys[0]} to {keys[1]}")


if __name__ == "__main__":
    main()
