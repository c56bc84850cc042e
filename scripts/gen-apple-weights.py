#!/usr/bin/env python3
"""Generate an Apple Health export (export.zip or export.xml) of many body-mass records.

For the memory of `import FILE types weight,steps`: N body-mass records, in time order five
minutes apart from 2010-01-01 (kg from a scale app with metadata, lb entered by hand, taking
turns as in a real export), with a step count after every few of them (--steps-every).
Python 3 standard library only; the same arguments write the same file.

  scripts/gen-apple-weights.py --weights 1000000 --out /tmp/weights-1M.zip
  scripts/gen-apple-weights.py --weights 1000 --xml --out /tmp/weights-1k.xml
"""
import argparse
import datetime as dt
import io
import sys
import zipfile

START = 1_262_304_000  # 2010-01-01T00:00:00Z


def fmt(instant):
    local = dt.datetime.fromtimestamp(instant + 3600, dt.timezone.utc)
    return local.strftime("%Y-%m-%d %H:%M:%S") + " +0100"


def generate(out, weights, steps_every):
    out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_NL">\n'
              b' <ExportDate value="2026-01-01 00:00:00 +0100"/>\n')
    steps = 0
    pending = []
    for index in range(weights):
        t = START + index * 300
        stamp = fmt(t)
        kilograms = 60 + (index * 37 % 4000) / 100
        if index % 3 == 2:
            pending.append(
                ' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="lb" '
                'creationDate="%s" startDate="%s" endDate="%s" value="%.1f">\n'
                '  <MetadataEntry key="HKWasUserEntered" value="1"/>\n </Record>\n'
                % (stamp, stamp, stamp, kilograms / 0.45359237))
        else:
            pending.append(
                ' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health Mate" '
                'sourceVersion="6.3.1" unit="kg" creationDate="%s" startDate="%s" endDate="%s" '
                'value="%.2f">\n  <MetadataEntry key="HKWasUserEntered" value="0"/>\n </Record>\n'
                % (stamp, stamp, stamp, kilograms))
        if steps_every and index % steps_every == 0:
            end = fmt(t + 120)
            pending.append(
                ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" '
                'unit="count" creationDate="%s" startDate="%s" endDate="%s" value="%d"/>\n'
                % (end, stamp, end, 10 + index % 900))
            steps += 1
        if len(pending) >= 4096:
            out.write("".join(pending).encode())
            pending = []
    out.write("".join(pending).encode())
    out.write(b"</HealthData>\n")
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=int, default=1_000_000, help="body-mass records")
    parser.add_argument("--steps-every", type=int, default=4,
                        help="a step count after every this many weights (0: none)")
    parser.add_argument("--out", default="export.zip", help="file to write")
    parser.add_argument("--xml", action="store_true", help="write plain export.xml, not a zip")
    args = parser.parse_args()
    if args.xml:
        with open(args.out, "wb") as f:
            steps = generate(f, args.weights, args.steps_every)
    else:
        with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as z:
            info = zipfile.ZipInfo("apple_health_export/export.xml", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=True) as f:
                steps = generate(io.BufferedWriter(f, 1 << 20), args.weights, args.steps_every)
    print("wrote %s: %d body mass, %d step counts" % (args.out, args.weights, steps), file=sys.stderr)


if __name__ == "__main__":
    main()
