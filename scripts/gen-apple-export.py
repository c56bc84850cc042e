#!/usr/bin/env python3
"""Generate a realistic Apple Health export (export.zip or export.xml) of a requested size.

The shape follows Apple's "Export All Health Data": XML declaration, inline DTD
(HealthKit Export Version 14), HealthData/ExportDate/Me, then Records (step count and
heart rate dominate; about 0.5% body mass in mixed kg and lb, plus BodyMassIndex, whose
type name starts with BodyMass), MetadataEntry children, device strings, blood-pressure
Correlations whose child records are repeated at the top level, Workouts with events,
statistics and routes, and ActivitySummary. Dates carry the Europe/Amsterdam offset of
their own moment (+0100 in winter, +0200 in summer). Python 3 standard library only.

  scripts/gen-apple-export.py --size 1G --out bench-data/export.zip
  scripts/gen-apple-export.py --size 200K --xml --out export.xml
"""
import argparse
import os
import re
import datetime as dt
import io
import random
import sys
import zipfile

def read_dtd():
    """The inline DTD, read from the Swift source weigh writes it from, so both agree."""
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "..", "Sources", "WeighKit", "Export", "AppleHealthExportDTD.swift")
    with open(source, encoding="utf-8") as handle:
        text = handle.read()
    version = re.search(r"static let version = (\d+)", text).group(1)
    body = text.split('public static let text = """\n', 1)[1].split('\n    """', 1)[0]
    lines = [line[4:] if line.startswith("    ") else line for line in body.split("\n")]
    return "\n".join(lines).replace("\\(version)", version) + "\n"


DTD = read_dtd()

UNITS = {"K": 10**3, "M": 10**6, "G": 10**9}


def parse_size(text):
    text = text.strip().upper().rstrip("B")
    if text and text[-1] in UNITS:
        return int(float(text[:-1]) * UNITS[text[-1]])
    return int(text)


def last_sunday(year, month):
    day = dt.date(year, month + 1, 1) - dt.timedelta(days=1) if month < 12 else dt.date(year, 12, 31)
    return day - dt.timedelta(days=(day.weekday() + 1) % 7)


_dst_cache = {}


def offset_minutes(instant):
    """Europe/Amsterdam: +0200 from the last Sunday of March 01:00 UTC to the last Sunday of
    October 01:00 UTC, else +0100."""
    year = dt.datetime.fromtimestamp(instant, dt.timezone.utc).year
    if year not in _dst_cache:
        start = dt.datetime.combine(last_sunday(year, 3), dt.time(1), dt.timezone.utc).timestamp()
        end = dt.datetime.combine(last_sunday(year, 10), dt.time(1), dt.timezone.utc).timestamp()
        _dst_cache[year] = (start, end)
    start, end = _dst_cache[year]
    return 120 if start <= instant < end else 60


def fmt(instant):
    offset = offset_minutes(instant)
    local = dt.datetime.fromtimestamp(instant + offset * 60, dt.timezone.utc)
    return local.strftime("%Y-%m-%d %H:%M:%S") + " +%02d%02d" % (offset // 60, offset % 60)


def device(rng, name, model, hardware, software, manufacturer="Apple Inc."):
    pointer = "0x%09x" % rng.getrandbits(36)
    return ("&lt;&lt;HKDevice: %s&gt;, name:%s, manufacturer:%s, model:%s, hardware:%s, "
            "software:%s&gt;" % (pointer, name, manufacturer, model, hardware, software))


def record(rng, rtype, source, version, dev, unit, start, end, value, metadata=(), indent=" "):
    attrs = ' type="%s" sourceName="%s"' % (rtype, source)
    if version:
        attrs += ' sourceVersion="%s"' % version
    if dev:
        attrs += ' device="%s"' % dev
    if unit:
        attrs += ' unit="%s"' % unit
    attrs += ' creationDate="%s" startDate="%s" endDate="%s" value="%s"' % (
        fmt(end + rng.randint(1, 600)), fmt(start), fmt(end), value)
    if not metadata:
        return "%s<Record%s/>\n" % (indent, attrs)
    children = "".join('%s <MetadataEntry key="%s" value="%s"/>\n' % (indent, k, v) for k, v in metadata)
    return "%s<Record%s>\n%s%s</Record>\n" % (indent, attrs, children, indent)


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.t = 1_640_995_200  # 2022-01-01T00:00:00Z
        self.counts = {"records": 0, "body_mass": 0, "workouts": 0, "correlations": 0}
        self.weight = 82.0

    def chunk(self):
        """About 8 KB of records covering the next stretch of time."""
        rng = self.rng
        out = []
        phone = "Anna’s iPhone"
        watch = "Anna’s Apple Watch"
        for _ in range(12):
            self.t += rng.randint(120, 900)
            t = self.t
            roll = rng.random()
            if roll < 0.45:
                out.append(record(rng, "HKQuantityTypeIdentifierStepCount", phone, "17.2",
                                  device(rng, "iPhone", "iPhone", "iPhone15,2", "17.2"), "count",
                                  t, t + 300, rng.randint(5, 900)))
            elif roll < 0.88:
                out.append(record(rng, "HKQuantityTypeIdentifierHeartRate", watch, "10.2",
                                  device(rng, "Apple Watch", "Watch", "Watch6,7", "10.2"), "count/min",
                                  t, t, rng.randint(48, 160),
                                  [("HKMetadataKeyHeartRateMotionContext", rng.choice("012"))]))
            elif roll < 0.95:
                out.append(record(rng, "HKQuantityTypeIdentifierActiveEnergyBurned", watch, "10.2",
                                  device(rng, "Apple Watch", "Watch", "Watch6,7", "10.2"), "kcal",
                                  t, t + 60, "%.3f" % rng.uniform(0.1, 9)))
            elif roll < 0.99:
                out.append(record(rng, "HKQuantityTypeIdentifierDistanceWalkingRunning", phone,
                                  "17.2", None, "km", t, t + 300, "%.5f" % rng.uniform(0.01, 0.6)))
            else:
                out.append(record(rng, "HKCategoryTypeIdentifierSleepAnalysis", phone, "17.2", None,
                                  None, t, t + 3600, "HKCategoryValueSleepAnalysisAsleepCore"))
            self.counts["records"] += 1
        # Body mass: about 0.5% of records, in kg from the scale app and lb from manual entry.
        if rng.random() < 0.06:
            # A random walk that drifts back toward 75 kg, so years of data stay plausible.
            self.weight += rng.uniform(-0.3, 0.3) + (75.0 - self.weight) * 0.02
            t = self.t + 7
            if rng.random() < 0.6:
                unit, value, source, version, meta = "kg", "%.1f" % self.weight, "Health Mate", "6.3.1", [
                    ("HKWasUserEntered", "0"), ("Withings User Identifier", "12345")]
            else:
                unit, value, source, version, meta = "lb", "%.1f" % (self.weight / 0.45359237), "Health", None, [
                    ("HKWasUserEntered", "1")]
            out.append(record(rng, "HKQuantityTypeIdentifierBodyMass", source, version, None, unit,
                              t, t, value, meta))
            out.append(record(rng, "HKQuantityTypeIdentifierBodyMassIndex", "Health Mate", "6.3.1",
                              None, "count", t, t, "%.2f" % (self.weight / 1.72 ** 2)))
            self.counts["records"] += 2
            self.counts["body_mass"] += 1
        if rng.random() < 0.01:
            t = self.t + 11
            sys_v, dia_v = rng.randint(105, 140), rng.randint(65, 90)
            children = [
                record(rng, "HKQuantityTypeIdentifierBloodPressureSystolic", "Omron", "2.0", None,
                       "mmHg", t, t, sys_v, indent="  "),
                record(rng, "HKQuantityTypeIdentifierBloodPressureDiastolic", "Omron", "2.0", None,
                       "mmHg", t, t, dia_v, indent="  "),
            ]
            out.append(' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" '
                       'sourceVersion="2.0" creationDate="%s" startDate="%s" endDate="%s">\n'
                       '  <MetadataEntry key="HKWasUserEntered" value="0"/>\n%s </Correlation>\n'
                       % (fmt(t + 5), fmt(t), fmt(t), "".join(children)))
            out.extend(c[1:] for c in children)
            self.counts["records"] += 2
            self.counts["correlations"] += 1
        if rng.random() < 0.02:
            t = self.t + 13
            minutes = rng.uniform(20, 70)
            end = t + int(minutes * 60)
            day = fmt(t)[:10]
            out.append(
                ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="%.4f" '
                'durationUnit="min" sourceName="%s" sourceVersion="10.2" device="%s" creationDate="%s" '
                'startDate="%s" endDate="%s">\n'
                '  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                '  <MetadataEntry key="HKTimeZone" value="Europe/Amsterdam"/>\n'
                '  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="%s" duration="%.4f" durationUnit="min"/>\n'
                '  <WorkoutEvent type="HKWorkoutEventTypePause" date="%s"/>\n'
                '  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="%s" endDate="%s" sum="%.2f" unit="kcal"/>\n'
                '  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="%s" endDate="%s" average="%d" minimum="%d" maximum="%d" unit="count/min"/>\n'
                '  <WorkoutRoute sourceName="%s" sourceVersion="10.2" creationDate="%s" startDate="%s" endDate="%s">\n'
                '   <FileReference path="/workout-routes/route_%s_%d.gpx"/>\n'
                '  </WorkoutRoute>\n'
                ' </Workout>\n'
                % (minutes, watch, device(rng, "Apple Watch", "Watch", "Watch6,7", "10.2"), fmt(end + 30),
                   fmt(t), fmt(end), fmt(t), minutes / 2, fmt(t + 600), fmt(t), fmt(end),
                   minutes * 10, fmt(t), fmt(end), rng.randint(120, 150), rng.randint(80, 100),
                   rng.randint(160, 185), watch, fmt(end + 30), fmt(t), fmt(end), day,
                   self.counts["workouts"]))
            self.counts["workouts"] += 1
        if rng.random() < 0.01:
            out.append(
                ' <ActivitySummary dateComponents="%s" activeEnergyBurned="%.3f" activeEnergyBurnedGoal="500" '
                'activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="%d" '
                'appleExerciseTimeGoal="30" appleStandHours="%d" appleStandHoursGoal="12"/>\n'
                % (fmt(self.t)[:10], rng.uniform(200, 900), rng.randint(0, 90), rng.randint(4, 16)))
        return "".join(out)


def generate(out, size, seed):
    gen = Generator(seed)
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n' + DTD + '<HealthData locale="en_NL">\n'
            ' <ExportDate value="%s"/>\n'
            ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-06-01" '
            'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
            'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
            'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" '
            'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n' % fmt(1_767_225_600))
    tail = "</HealthData>\n"
    written = len(head.encode())
    out.write(head.encode())
    pending = []
    pending_bytes = 0
    while written + len(tail) < size:
        before = dict(gen.counts)
        text = gen.chunk().encode()
        if written + len(text) + len(tail) > size and written > len(head):
            gen.counts = before
            break
        pending.append(text)
        pending_bytes += len(text)
        written += len(text)
        if pending_bytes > 1 << 20:
            out.write(b"".join(pending))
            pending, pending_bytes = [], 0
    out.write(b"".join(pending))
    out.write(tail.encode())
    return written + len(tail), gen.counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="100M", help="size of export.xml, e.g. 200K, 100M, 1G")
    parser.add_argument("--out", default="export.zip", help="file to write")
    parser.add_argument("--xml", action="store_true", help="write plain export.xml, not a zip")
    parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same file)")
    parser.add_argument("--level", type=int, default=6, help="deflate level of the zip")
    args = parser.parse_args()
    size = parse_size(args.size)
    if args.xml:
        with open(args.out, "wb") as f:
            total, counts = generate(f, size, args.seed)
    else:
        with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED, compresslevel=args.level) as z:
            info = zipfile.ZipInfo("apple_health_export/export.xml", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=size > 0xFFFF0000) as f:
                total, counts = generate(io.BufferedWriter(f, 1 << 20), size, args.seed)
    print("wrote %s: export.xml %d bytes, %d records, %d body mass, %d workouts, %d correlations"
          % (args.out, total, counts["records"], counts["body_mass"], counts["workouts"],
             counts["correlations"]), file=sys.stderr)


if __name__ == "__main__":
    main()
