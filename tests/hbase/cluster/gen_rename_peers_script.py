#!/usr/bin/env python3
"""gen_rename_peers_script.py OUT_PREFIX EXPORT_DIR: the scripts of the rename comparison
(check_rename_peers.sh).

OUT_PREFIX.load.jsonl: table t1 with family f (the original) and the empty target families c1,
c2 and e, all VERSIONS 5; into f, in separate flushes so that HBase's flush drops nothing: 3
versions of every cell (a cell TTL tag on a third of them), a 4th version of some, then one delete
marker of each kind over cells of earlier flushes; then HBase's tools copy f:
  c1  CopyTable --new.name=t1 --families=f:c1 t1 (its defaults; a same-cluster copy must name
      its target, the same table here),
  c2  CopyTable --new.name=t1 --all.cells --versions=MAX --families=f:c2 t1 (everything it can
      be asked for),
  e   Export -Dhbase.mapreduce.include.deleted.rows=true ... MAX (raw, every version) then
      Import -DHBASE_IMPORTER_RENAME_CFS=f:e,
  c3, e2  as c2 and e with -Dhbase.client.rpc.codec=...KeyValueCodecWithTags on each job,
then a raw scan (what they wrote, still in the memstore) and a flush (to store files).
OUT_PREFIX.scan.jsonl: raw and client scans.
Timestamps are recent (now minus an hour), so that the TTL tags (30 days) have not expired."""
import json
import sys
import time

prefix, export_dir = sys.argv[1], sys.argv[2]
T = "t1"
MAX = str(2**31 - 1)
TAGS_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodecWithTags"
base = (int(time.time()) - 3600) * 1000
rows = [f"r{i:02d}" for i in range(12)]
quals = ["a", "b"]


def op(**kw):
    return json.dumps(dict(kw), separators=(",", ":"))


def fam(name):
    return {"name": name, "compression": "NONE", "encoding": "FAST_DIFF", "bloom": "ROW",
            "max_versions": 5}


load = [op(op="create", table=T, families=[fam(n) for n in ("f", "c1", "c2", "c3", "e", "e2")])]
for v in range(3):
    for i, row in enumerate(rows):
        for q in quals:
            p = dict(op="put", table=T, row=row, family="f", qualifier=q,
                     value=f"{row}{q}v{v}", timestamp=base + v)
            if (i + v) % 3 == 0:
                p["ttl"] = 30 * 86400 * 1000
            load.append(op(**p))
    load.append(op(op="flush", table=T))
# A 4th version, newer than every marker below.
for row in rows[6:]:
    load.append(op(op="put", table=T, row=row, family="f", qualifier="a", value=f"{row}av3",
                   timestamp=base + 3))
load.append(op(op="flush", table=T))
# One marker of each kind, each over cells of the flushes above (so the cells stay in f's files).
load += [
    op(op="delete", table=T, row="r00", family="f", qualifier="a", type="Delete",
       timestamp=base + 1),
    op(op="delete", table=T, row="r01", family="f", qualifier="b", type="DeleteColumn",
       timestamp=base + 1),
    op(op="delete", table=T, row="r02", family="f", type="DeleteFamily", timestamp=base + 1),
    op(op="delete", table=T, row="r03", family="f", type="DeleteFamilyVersion",
       timestamp=base + 2),
    op(op="flush", table=T),
    op(op="mapreduce", table=T, tool="CopyTable", args=["--new.name=" + T, "--families=f:c1", T]),
    op(op="mapreduce", table=T, tool="CopyTable",
       args=["--new.name=" + T, "--all.cells", f"--versions={MAX}",
             "--families=f:c2", T]),
    op(op="mapreduce", table=T, tool="Export",
       args=["-Dhbase.mapreduce.include.deleted.rows=true",
             "-Dhbase.mapreduce.scan.column.family=f", T, export_dir, MAX]),
    op(op="mapreduce", table=T, tool="Import", args=["-DHBASE_IMPORTER_RENAME_CFS=f:e", T,
                                                     export_dir]),
    # The same two with the client RPC codec that carries tags (HBASE-25246 made Export's
    # serialisation keep them; the default KeyValueCodec drops them on the wire).
    op(op="mapreduce", table=T, tool="CopyTable",
       args=[f"-Dhbase.client.rpc.codec={TAGS_CODEC}", "--new.name=" + T, "--all.cells",
             f"--versions={MAX}", "--families=f:c3", T]),
    op(op="mapreduce", table=T, tool="Export",
       args=[f"-Dhbase.client.rpc.codec={TAGS_CODEC}",
             "-Dhbase.mapreduce.include.deleted.rows=true",
             "-Dhbase.mapreduce.scan.column.family=f", T, export_dir + "-tags", MAX]),
    op(op="mapreduce", table=T, tool="Import",
       args=[f"-Dhbase.client.rpc.codec={TAGS_CODEC}", "-DHBASE_IMPORTER_RENAME_CFS=f:e2", T,
             export_dir + "-tags"]),
    # What the jobs wrote, still in the memstore: the cells under markers are there.
    op(op="scan", table=T),
    op(op="flush", table=T),
]
scans = [op(op="scan", table=T), op(op="scan", table=T, raw=False)]
with open(prefix + ".load.jsonl", "w") as f:
    f.write("\n".join(load) + "\n")
with open(prefix + ".scan.jsonl", "w") as f:
    f.write("\n".join(scans) + "\n")
