#!/usr/bin/env bash
# check_create.sh WORK_DIR HFILE_CREATE: HBase serves a table hfile-create made offline exactly
# as a twin created online by the same statement (hfile-describe and hfile-verify are taken from
# HFILE_CREATE's directory, hfile-dump too). One HBase start:
#   1. Offline: hfile-create the design guide's `docs` statement (two families with different
#      codecs, encodings, block sizes, VERSIONS, TTL, BLOCKCACHE; SPLITS into 8 regions) on a NEW
#      root dir (nothing there: hfile-create lays it out).
#      And ns1:t2 (NUMREGIONS 4, HexStringSplit) with --create-namespace.
#   2. HBase started on that root (it bootstraps hbase:meta itself); the table brought online as
#      an operator does with HBCK2 (the harness's fs_table_online op: addFsRegionsMissingInMeta,
#      setTableState ENABLED, assigns); a twin `twin` created online with the same families and
#      splits (Admin.createTable, as the shell's create calls it); ns1 created (create_namespace)
#      and ns1:t2 brought online the same way, a row put and got in each of its regions; docs
#      and twin described (the shell's
#      own describe lines, and every stored attribute), their regions listed; the same puts into
#      both, across all 8 regions (a heavy run of rows in the first); gets of two rows in every
#      region and client scans of both;
#      both flushed, hbase:meta flushed; HBase stops.
#   3. Offline: the descriptors are equal attribute by attribute (table values, every family's
#      values and configuration), hfile-describe's describe block is the shell's line for line
#      (the "Table docs is ENABLED" line read from the flushed hbase:meta), the region boundaries equal the twin's,
#      the scans are equal (table aside) and hold every row put, the flushed files carry each
#      family's codec, encoding and bloom, m's 16 KB blocks are more numerous than b's 128 KB
#      ones for the same cells, and hfile-verify --root --table docs is clean (against
#      hbase:meta too).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 create=$2
bin="$(dirname "$create")"
rm -rf "$work" && mkdir -p "$work"
root="$work/A/hbase"
stmt="create 'docs', {NAME => 'm', VERSIONS => 1, BLOOMFILTER => 'ROW', DATA_BLOCK_ENCODING => 'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, {NAME => 'b', VERSIONS => 3, TTL => 7776000, COMPRESSION => 'ZSTD', BLOCKSIZE => 131072, BLOCKCACHE => false}, {SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}"
"$create" --json "$root" "$stmt" > "$work/create.json"
# A second table in a namespace of its own: the dir made offline, the namespace's hbase:meta
# row by the shell's create_namespace once HBase is up (hfile-create(1)).
"$create" --create-namespace "$root" "create 'ns1:t2', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}" > "$work/create-ns.out"
python3 - "$work/create.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["ok"] and j["root_initialised"] and len(j["regions"]) == 8, j
print(f"check_create: hfile-create wrote docs with {len(j['regions'])} regions on a new root")
PY
python3 - "$work" <<'PY'
import json, random, sys, time
w = sys.argv[1]
rng = random.Random(7)
now = int(time.time() * 1000)
def op(**kw):
    return json.dumps(kw, separators=(",", ":"))
twin = op(op="create", table="twin", splits=["2", "4", "6", "8", "a", "c", "e"], families=[
    {"name": "m", "compression": "snappy", "encoding": "FAST_DIFF", "bloom": "ROW",
     "max_versions": 1, "set": {"BLOCKSIZE": "16384"}},
    {"name": "b", "compression": "zstd", "encoding": "NONE", "bloom": "ROW", "max_versions": 3,
     "set": {"TTL": "7776000", "BLOCKSIZE": "131072", "BLOCKCACHE": "false"}}])
puts, rows = [], []
for p in "0123456789abcdef":
    for i in range(2):
        rows.append(f"{p}-doc{i}")
for i in range(200):  # enough for many 16 KB blocks in region ['', '2')
    rows.append(f"0big{i:03d}")
for k, row in enumerate(rows):
    for fam, q in (("m", "title"), ("b", "body")):
        v = "".join(rng.choice("0123456789abcdef") for _ in range(1000 if "big" in row else 40))
        puts.append(dict(row=row, family=fam, qualifier=q, timestamp=now - k, value=v))
lines = [op(op="fs_table_online", table="docs"), twin,
         op(op="create_namespace", table="ns1:t2"), op(op="fs_table_online", table="ns1:t2"),
         op(op="regions", table="ns1:t2")]
lines += [op(op="put", table="ns1:t2", row=r, family="f", qualifier="q", value=r)
          for r in ("0a", "5a", "9a", "fa")]
lines += [op(op="get_row", table="ns1:t2", row=r) for r in ("0a", "5a", "9a", "fa")]
for t in ("docs", "twin"):
    lines += [op(op="shell_describe", table=t), op(op="describe", table=t), op(op="regions", table=t)]
for t in ("docs", "twin"):
    lines += [op(op="put", table=t, **p) for p in puts]
gets = [r for r in rows if "-doc" in r]  # two rows in every region
for t in ("docs", "twin"):
    lines += [op(op="get_row", table=t, row=r) for r in gets]
    lines += [op(op="scan", table=t, raw=False), op(op="flush", table=t)]
lines.append(op(op="flush", table="hbase:meta"))
open(f"{w}/script.jsonl", "w").write("\n".join(lines) + "\n")
json.dump(sorted(rows), open(f"{w}/rows.json", "w"))
json.dump({f"{p['row']}/{p['family']}": p["value"] for p in puts}, open(f"{w}/values.json", "w"))
PY
t0=$SECONDS
"$harness" cluster --root "$work/A" --script "$work/script.jsonl" > "$work/cluster.out"
echo "check_create: HBase ran the script on the root ($((SECONDS - t0)) s)"
"$bin/hfile-describe" "$root" docs > "$work/describe.txt"
"$bin/hfile-describe" --json "$root" docs > "$work/describe.json"
for f in $(find "$root/data/default/docs" -path '*/[mb]/*' -type f ! -name '.*' | sort); do
  fam=$(basename "$(dirname "$f")")
  { echo "{\"kind\":\"file\",\"family\":\"$fam\",\"path\":\"$f\"}"; "$bin/hfile-dump" -m --json "$f"; }
done > "$work/files.jsonl"
set +e
"$bin/hfile-verify" --json -q --root "$root" --table docs > "$work/verify.json"
vrc=$?
set -e
python3 - "$work" "$vrc" <<'PY'
import json, sys
w, vrc = sys.argv[1], int(sys.argv[2])
recs = [json.loads(l) for l in open(f"{w}/cluster.out")]
def by(kind, table):
    return [r for r in recs if r.get("kind") == kind and r.get("table") == table]
online = [r for r in recs if r.get("kind") == "fs_table_online"]
online = [r for r in online if r["table"] == "docs"]
assert len(online) == 1 and online[0]["regions"] == 8, online
print(f"check_create: docs online through HBCK2's calls: {online[0]}")
ns = [r for r in recs if r.get("kind") == "fs_table_online" and r["table"] == "ns1:t2"]
assert len(ns) == 1 and ns[0]["regions"] == 4, ns
nsget = by("get_row", "ns1:t2")
assert [g["cells"][0]["value"] for g in nsget] == ["0a", "5a", "9a", "fa"], nsget
assert len({g["region"] for g in nsget}) == 4, nsget
print("check_create: ns1:t2 (namespace dir made offline, create_namespace online) serves its 4 "
      "HexStringSplit regions")
# Descriptors: every stored attribute equal.
d, t = by("describe", "docs")[0], by("describe", "twin")[0]
assert d["values"] == t["values"], (d["values"], t["values"])
assert d["families"] == t["families"], (d["families"], t["families"])
print(f"check_create: descriptors equal: table values {d['values']}, "
      f"{len(d['families'])} families x {len(d['families'][0]['values'])} attributes")
# The shell's describe lines against hfile-describe's block.
shell = by("shell_describe", "docs")[0]["lines"]
twin_shell = [l.replace("twin", "docs") for l in by("shell_describe", "twin")[0]["lines"]]
assert shell == twin_shell, (shell, twin_shell)
ours = open(f"{w}/describe.txt").read().split("\n")
assert shell[0] == "Table docs is ENABLED", shell[0]
assert ours[0:3] == shell[0:3], (ours[0:3], shell[0:3])  # the state line read from hbase:meta
fams = [l for l in ours[3:] if l.startswith("{NAME")]
assert fams == shell[3:], (fams, shell[3:])
print("check_create: hfile-describe prints the shell's describe lines exactly:\n  " +
      "\n  ".join(shell))
# Region boundaries.
regs = {}
cur = None
for r in recs:
    if r.get("kind") in ("shell_describe", "fs_table_online"):
        cur = r["table"]
    if r.get("kind") == "region":
        regs.setdefault(cur, []).append((r["start"], r["end"]))
assert regs["docs"] == regs["twin"] and len(regs["docs"]) == 8, regs
assert [s for s, _ in regs["ns1:t2"]] == ["", "40000000", "80000000", "c0000000"], regs["ns1:t2"]
ours_json = json.load(open(f"{w}/describe.json"))
ours_ranges = [(x["start_key"], x["end_key"]) for x in ours_json["layout"]["regions"]]
assert sorted(ours_ranges) == sorted(regs["docs"]), (ours_ranges, regs["docs"])
print(f"check_create: the 8 region boundaries equal the twin's: {[s for s, _ in regs['docs']]}")
# Scans: equal but for the table, every row there (both families).
scans = []
for r in recs:
    if r.get("kind") == "scan" and "finished" not in r:
        scans.append([])
    elif r.get("kind") == "cell":
        if not scans:
            scans.append([])
        scans[-1].append({k: v for k, v in r.items() if k not in ("seqid", "table")})
assert len(scans) == 2, len(scans)
assert scans[0] == scans[1], "docs and twin scans differ"
rows = json.load(open(f"{w}/rows.json"))
assert sorted({c["row"] for c in scans[0]}) == rows and len(scans[0]) == 2 * len(rows), len(scans[0])
print(f"check_create: client scans of docs and twin equal: {len(scans[0])} cells, {len(rows)} rows over 8 regions")
# Gets: every -doc row from its own region, both families, the value put.
values = json.load(open(f"{w}/values.json"))
for t in ("docs", "twin"):
    got = by("get_row", t)
    assert len(got) == 32, len(got)
    for g in got:
        cells = {c["family"]: c["value"] for c in g["cells"]}
        assert cells == {"m": values[g["row"] + "/m"], "b": values[g["row"] + "/b"]}, g
    assert len({g["region"] for g in got}) == 8, {g["region"] for g in got}
print("check_create: gets of 2 rows in each of the 8 regions return both families' values, "
      "on docs and twin")
# Flushed files: each family's settings.
files, cur = [], None
for line in open(f"{w}/files.jsonl"):
    r = json.loads(line)
    if r["kind"] == "file":
        cur = dict(family=r["family"], path=r["path"], info={})
        files.append(cur)
    elif r["kind"] == "trailer":
        cur["trailer"] = r
    elif r["kind"] == "fileinfo":
        cur["info"][r["key"]] = r["decoded"]
assert {f["family"] for f in files} == {"m", "b"} and len(files) == 16, [(f["family"], f["path"]) for f in files]
for f in files:
    want_codec, want_enc = ("SNAPPY", "FAST_DIFF") if f["family"] == "m" else ("ZSTD", "NONE")
    assert f["trailer"]["compression"] == want_codec, (f["path"], f["trailer"])
    assert f["info"].get("DATA_BLOCK_ENCODING", "NONE") == want_enc, (f["path"], f["info"])
    assert f["info"]["BLOOM_FILTER_TYPE"] == "ROW", f["info"]
first_region = ours_json["layout"]["regions"]
enc0 = [x["encoded_name"] for x in first_region if x["start_key"] == ""][0]
blocks = {f["family"]: f["trailer"]["data_index_count"] for f in files if f"/{enc0}/" in f["path"]}
assert blocks["m"] >= 4 * blocks["b"] and blocks["b"] >= 1, blocks
print(f"check_create: 16 flushed files carry their family's codec/encoding/bloom; region {enc0}: "
      f"m has {blocks['m']} data blocks of 16 KB, b {blocks['b']} of 128 KB for the same rows")
v = json.load(open(f"{w}/verify.json"))
assert vrc == 0 and v.get("clean", True), (vrc, v)
import os
assert os.path.exists(f"{w}/A/hbase/hbase.id"), "HBase did not write hbase.id"
print("check_create: hfile-verify --root --table docs is clean (files, regions, hbase:meta)")
PY
echo "check_create: OK"
