#!/usr/bin/env python3
"""Writes one file of N weights in the shape of each reader `weigh import` has, for
scripts/bench-readers.sh. The shapes follow the fixtures in Tests/golden/files.

    python3 scripts/gen-import-files.py --rows 1000000 --out bench-data/readers

Readers with a time of day get one weight a minute from 2015-01-01 00:00; readers with
a date alone (Google Fit, MyFitnessPal) get 300 distinct weights a day, so every row is a
distinct weight. Every row is valid: a run imports exactly N entries.
"""

import argparse
import datetime
import os

START = datetime.datetime(2015, 1, 1)
DAILY = 300  # weights a day for the formats that keep a date alone

WEIGH_HEADER = (
    "id,instant,kilograms,origin,source,note,revision,health_uuid,pushed_uuid,pushed_revision"
)


def minutes(n):
    """(index, datetime) one a minute from START."""
    step = datetime.timedelta(minutes=1)
    moment = START
    for i in range(n):
        yield i, moment
        moment += step


def days(n):
    """(index, date, weight) with DAILY distinct weights a day."""
    day = START.date()
    for i in range(n):
        if i and i % DAILY == 0:
            day += datetime.timedelta(days=1)
        yield i, day, 50 + (i % DAILY) / 10


def weight(i):
    """A weight in kg with two decimals, 60.00–99.99."""
    return f"{60 + (i * 37 % 4000) / 100:.2f}"


def withings(out, n):
    out.write('Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)",'
              '"Hydration (kg)",Comments\n')
    for i, t in minutes(n):
        out.write(f'"{t:%Y-%m-%d %H:%M:%S}",{weight(i)},15.10,3.10,52.40,39.80,\n')


def openscale(out, n):
    out.write("DATE,TIME,BMI,BODY_FAT,COMMENT,WATER,WEIGHT\n")
    for i, t in minutes(n):
        out.write(f"{t:%Y-%m-%d},{t:%H:%M},23.1,21.0,,54.9,{weight(i)}\n")


def weigh_csv(out, n):
    out.write(WEIGH_HEADER + "\n")
    for i, t in minutes(n):
        out.write(f'{i + 1},{t:%Y-%m-%dT%H:%M:%S}Z,{weight(i)},import,"Withings",,1,,,\n')


def generic(out, n):
    out.write("datetime,kg,note\n")
    for i, t in minutes(n):
        out.write(f"{t:%Y-%m-%d %H:%M},{weight(i)},\n")


def google_fit(out, n):
    out.write("Date,Move Minutes count,Calories (kcal),Distance (m),Heart Points,"
              "Heart Minutes,Average heart rate (bpm),Max heart rate (bpm),"
              "Min heart rate (bpm),Average speed (m/s),Max speed (m/s),Min speed (m/s),"
              "Step count,Average weight (kg),Max weight (kg),Min weight (kg),"
              "Biking duration (ms),Walking duration (ms)\n")
    for i, day, kg in days(n):
        out.write(f"{day:%Y-%m-%d},35,2210.5,4100.2,12,10,71.2,130,55,1.2,2.1,0.3,6120,"
                  f"{kg:.1f},{kg:.1f},{kg:.1f},,2400000\n")


def samsung(out, n):
    prefix = "com.samsung.health.weight"
    out.write(f"{prefix},6313004,3\n")
    out.write(f"create_time,update_time,{prefix}.start_time,{prefix}.weight,{prefix}.height,"
              f"{prefix}.time_offset,{prefix}.deviceuuid,pkg_name,\n")
    for i, t in minutes(n):
        stamp = f"{t:%Y-%m-%d %H:%M:%S}.000"
        out.write(f"{stamp},{stamp},{stamp},{weight(i)},178.0,UTC+0100,aB3dEf,"
                  "com.sec.android.app.shealth,\n")


def garmin(out, n):
    out.write("Time,Weight,Change,BMI,Body Fat,Skeletal Muscle Mass,Bone Mass,Body Water\n")
    day = None
    for i, t in minutes(n):
        if t.date() != day:
            day = t.date()
            out.write(f'" {t:%b} {t.day}, {t.year}",,,,,,,\n')
        out.write(f"{t:%H:%M},{weight(i)} kg,0.2 kg,25.6,20%,--,--,--\n")


def renpho(out, n):
    out.write("Time of Measurement,Weight(kg),BMI,Body Fat(%),Fat-Free Mass(kg),"
              "Subcutaneous Fat(%),Visceral Fat,Body Water(%),Skeletal Muscle(%),"
              "Muscle Mass(kg),Bone Mass(kg),Protein(%),BMR(kcal),Metabolic Age,"
              "Optimal weight(kg),Target to optimal weight(kg),Target to optimal fat mass(kg),"
              "Target to optimal muscle mass(kg),Body Type,Remarks\n")
    for i, t in minutes(n):
        out.write(f"{t:%Y-%m-%d %H:%M:%S},{weight(i)},23.8,23.2,58.48,20.9,7.0,55.4,49.5,"
                  "55.59,2.89,17.5,1618,35,,,,,,\n")


def libra(out, n):
    out.write("#Version: 6\n#Units: kg\n\n#date;weight;weight trend;body fat;body fat trend;"
              "muscle mass;muscle mass trend;log\n")
    for i, t in minutes(n):
        out.write(f"{t:%Y-%m-%dT%H:%M:%S}.000Z;{weight(i)};{weight(i)};;;;;\n")


def myfitnesspal(out, n):
    out.write("Date,Weight\n")
    for i, day, kg in days(n):
        out.write(f"{day:%Y-%m-%d},{kg:.1f}\n")


def fitbit(out, n):
    out.write("[")
    for i, t in minutes(n):
        lb = f"{(60 + (i * 37 % 4000) / 100) / 0.45359237:.1f}"
        comma = ",\n " if i else ""
        out.write(f'{comma}{{"logId":{1420070400000 + i * 60000},"weight":{lb},"bmi":23.4,'
                  f'"fat":21.5,"date":"{t:%m/%d/%y}","time":"{t:%H:%M:%S}","source":"Aria"}}')
    out.write("]\n")


def weigh_json(out, n):
    out.write('{"format": "weigh", "version": 1, "entries": [\n')
    for i, t in minutes(n):
        comma = ",\n" if i + 1 < n else "\n"
        out.write(f'  {{"id": {i + 1}, "instant": "{t:%Y-%m-%dT%H:%M:%S}Z", '
                  f'"kilograms": {weight(i)}, "origin": "import", "source": "Withings", '
                  f'"note": null, "revision": 1, "healthUUID": null, "pushedUUID": null, '
                  f'"pushedRevision": null}}{comma}')
    out.write("]}\n")


# name: (writer, file name). File names are what the readers' exports are called, where
# detection does not care, and a name detection accepts for Fitbit.
READERS = {
    "withings": (withings, "withings-weight.csv"),
    "openscale": (openscale, "openscale.csv"),
    "weigh-csv": (weigh_csv, "weigh.csv"),
    "generic": (generic, "own.csv"),
    "google-fit": (google_fit, "google-fit-daily.csv"),
    "samsung": (samsung, "com.samsung.health.weight.csv"),
    "garmin": (garmin, "garmin-weight.csv"),
    "renpho": (renpho, "renpho.csv"),
    "libra": (libra, "libra.csv"),
    "myfitnesspal": (myfitnesspal, "myfitnesspal.csv"),
    "fitbit": (fitbit, "weight-fitbit.json"),
    "weigh-json": (weigh_json, "weigh.json"),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--out", required=True, help="directory for the files")
    parser.add_argument("readers", nargs="*", help=f"some of {', '.join(READERS)}; all when none")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.readers or READERS:
        write, file_name = READERS[name]
        path = os.path.join(args.out, f"{args.rows}-{file_name}")
        with open(path + ".part", "w", encoding="utf-8", newline="\n", buffering=1 << 20) as out:
            write(out, args.rows)
        os.replace(path + ".part", path)
        print(path)


if __name__ == "__main__":
    main()
