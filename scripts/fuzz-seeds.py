#!/usr/bin/env python3
"""Regenerates Fuzz/corpus/<target>/ from the repository's own fixtures and golden scripts.

Usage: scripts/fuzz-seeds.py [path/to/weigh]   (default .build/debug/weigh; needed only
for the store-loader seeds, which are stores weigh itself wrote)

Each seed is a small file named after where it came from. Rerun after fixtures change;
libFuzzer adds what it finds to a separate folder (scripts/fuzz.sh), never to these.
"""
import glob, hashlib, json, os, shutil, subprocess, sys, tempfile, zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")
WEIGH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "weigh")

def rel(*parts):
    return os.path.join(ROOT, *parts)

def reset(target):
    path = os.path.join(CORPUS, target)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path

def put(target_dir, name, data, limit):
    if len(data) > limit:
        return
    with open(os.path.join(target_dir, name), "wb") as f:
        f.write(data)

def read(path):
    with open(path, "rb") as f:
        return f.read()

def leaves_scratch(text):
    # The fuzz targets skip inputs naming paths outside their temporary folder.
    if ".." in text or "~" in text or "\\" in text:
        return True
    prev = " "
    for c in text:
        if c == "/" and not prev.isalnum():
            return True
        prev = c
    return False

goldens = sorted(glob.glob(rel("Tests", "golden", "**", "*.wcfg"), recursive=True))

# interpreter-line: every distinct command line of the golden scripts.
out = reset("interpreter-line")
seen = set()
for path in goldens:
    # Some goldens are not UTF-8 on purpose (the not-UTF-8 error); their bytes are seeds too.
    for line in read(path).decode("utf-8", "surrogateescape").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line in seen or leaves_scratch(line):
            continue
        seen.add(line)
        data = line.encode("utf-8", "surrogateescape")
        digest = hashlib.sha1(data).hexdigest()[:10]
        name = line.split()[0][:12].encode("ascii", "replace").decode().replace("/", "_")
        put(out, f"{name}-{digest}", data, 256)

# interpreter-script: the small golden scripts whole.
out = reset("interpreter-script")
for path in goldens:
    data = read(path)
    if not leaves_scratch(data.decode("utf-8", "surrogateescape")):
        name = os.path.relpath(path, rel("Tests", "golden")).replace("/", "-")
        put(out, name, data, 2048)

# Importers: the fixture files of each format.
def files(target, patterns, limit=16384):
    out = reset(target)
    for pattern in patterns:
        for path in sorted(glob.glob(rel(*pattern.split("/")))):
            put(out, os.path.basename(path), read(path), limit)
    return out

files("withings-csv", ["Tests/fixtures/vendors/withings-*.csv", "Tests/golden/files/withings-*.csv"])
files("openscale-csv", ["Tests/fixtures/vendors/openscale-*.csv", "Tests/golden/files/openscale-*.csv"])
files("fitbit-json", ["Tests/fixtures/vendors/fitbit-*.json", "Tests/golden/files/fitbit-*.json"])
files("weigh-csv", ["Tests/golden/files/weigh-*.csv"])
files("weigh-json", ["Tests/golden/files/weigh-*.json"])
# csv-any: every CSV fixture, whatever its reader; detection picks it.
files("csv-any", ["Tests/fixtures/vendors/*.csv", "Tests/golden/files/*.csv"])
# generic-csv: a first line of options (what follows `import data.csv as csv`), then the file.
GENERIC = [
    ("own-datetime-kg.csv", ""),
    ("own-lbs.csv", "source Scale"),
    ("own-unnamed.csv", "date when weight scale unit kg tz Europe/Berlin"),
    ("own-semicolon.csv", 'date Day weight 2 unit kg format "dd/MM/yyyy HH:mm" delimiter ";" source Notebook'),
    ("own-semicolon.csv", "weight Kilos unit kg"),
    ("myfitnesspal.csv", "unit lb"),
    ("garmin-weight.csv", 'date Time weight Weight unit kg format "MMM d, yyyy"'),
    ("renpho.csv", 'format "yyyy-MM-dd HH:mm:ss" tz UTC'),
    ("google-fit-daily.csv", 'weight "Average weight (kg)" format "yyyy-MM-dd"'),
    ("withings-weight.csv", 'date 1 weight 2 format "yyyy-MM-dd HH:mm:ss"'),
    ("openscale-3x.csv", 'date DATE time TIME weight WEIGHT unit kg format "yyyy-MM-dd"'),
]
out = reset("generic-csv")
for name, options in GENERIC:
    for folder in ("golden/files", "fixtures/vendors"):
        path = rel("Tests", *folder.split("/"), name)
        if os.path.exists(path):
            digest = hashlib.sha1(options.encode()).hexdigest()[:6]
            put(out, f"{name[:-4]}-{digest}", options.encode() + b"\n" + read(path), 16384)
            break
# apple-xml: the first byte says where the target splits the rest into two chunks.
out = reset("apple-xml")
for path in sorted(glob.glob(rel("Tests", "fixtures", "apple", "*.xml")) + glob.glob(rel("Tests", "golden", "files", "apple-*.xml"))):
    data = read(path)
    put(out, os.path.basename(path), bytes([len(data) // 2 % 256]) + data, 16384)
out = reset("apple-zip")
shutil.copy(rel("Tests", "golden", "files", "apple-export.zip"), os.path.join(out, "apple-export.zip"))
for name in ["export-no-dtd.xml", "export-bad-values.xml"]:
    zpath = os.path.join(out, name.replace(".xml", ".zip"))
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("apple_health_export/export.xml", date_time=(2026, 1, 1, 0, 0, 0))
        z.writestr(info, read(rel("Tests", "fixtures", "apple", name)), zipfile.ZIP_DEFLATED)

# store-loader: stores written by weigh, their files joined with NUL bytes in the order
# FuzzTargets.storeFiles gives (weigh.json, journal.jsonl, entries.json, health.json,
# health-sync.json).
FILES = ["weigh.json", "journal.jsonl", "entries.json", "health.json", "health-sync.json"]
SCRIPTS = {
    "log-health": "log 70.5kg note \"first\"\nlog 71kg at 2025-12-31 07:00\n"
                  "health add 70.6kg at 07:00 source Other\nhealth add 5000steps at 06:00\n"
                  "sync all\ndelete #1\nedit last 72kg\n",
    "settings-sim": "set height 1.8m\nlog 70kg\ngoal 65kg\n"
                    "simulate scale every 1d start 70kg drift -0.1kg/d\nadvance 2d\n"
                    "observe on\nsync all\n",
    "import-apple": "import export.xml types glucose,steps,energy,exercise,workouts\nlist\n",
}
out = reset("store-loader")
with tempfile.TemporaryDirectory() as tmp:
    shutil.copy(rel("Tests", "golden", "files", "apple-types.xml"), os.path.join(tmp, "export.xml"))
    for name, script in SCRIPTS.items():
        store = os.path.join(tmp, name)
        with open(os.path.join(tmp, name + ".wcfg"), "w") as f:
            f.write(script)
        subprocess.run([WEIGH, "--store", store, "--keep-going", "--clock", "2026-01-01T08:00:00Z",
                        "--tz", "UTC", name + ".wcfg"], cwd=tmp, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        parts = [read(os.path.join(store, f)) if os.path.exists(os.path.join(store, f)) else b"" for f in FILES]
        put(out, name, b"\0".join(parts), 8192)
    # A compacted store: a few rows in entries.json, the journal after it.
    store = os.path.join(tmp, "log-health")
    journal = read(os.path.join(store, "journal.jsonl")).decode().splitlines()
    rows = [json.loads(l)["changes"][0]["row"] for l in journal[1:3]]
    manifest = {"format": "weigh-store", "version": 1, "sequence": 2,
                "tables": {"entries": {"file": "entries.json", "nextID": 3,
                                       "stamp": "0 bytes, modified 0"}}, "documents": {}}
    entries = '{"format":"weigh-entries","version":1,"sequence":2,"rows":[\n' + \
        ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]}\n"
    rest = "\n".join([journal[0]] + journal[3:]) + "\n"
    put(out, "compacted", b"\0".join([json.dumps(manifest, indent=2).encode(), rest.encode(),
                                       entries.encode(), b"", b""]), 8192)
print("seeds:", {t: len(os.listdir(os.path.join(CORPUS, t))) for t in sorted(os.listdir(CORPUS))})
