#!/usr/bin/env python3
"""gen_alter_attrs_script.py SEED OUT_PREFIX [NOW_MS]: the scripts of the per-attribute alter
comparison (check_alter_attrs.sh). One table per case, each changing ONE family attribute of
family f, all loaded, altered and read in the same three HBase runs:

  OUT_PREFIX.load.jsonl   create every table, random puts and deletes of every kind (the same
                          seeded sequence in each table), 4 flushes per table
  OUT_PREFIX.alter.jsonl  per table: HBase's alter + major_compact; then per table: describe,
                          raw scan, client scan
  OUT_PREFIX.after.jsonl  per table: describe, raw scan, client scan
  OUT_PREFIX.cases.json   per table: the attribute, the shell statement for hfile-alter, the
                          harness op, and the family's settings after the alter (what every
                          store file must then say)

Timestamps come from three groups of four: ancient (1000..1003), two days old and one hour old
(relative to NOW_MS, default the wall clock). A TTL of one day then drops the first two groups
and keeps the third whatever the minutes between HBase's compaction and hfile-alter's run."""
import json
import random
import sys
import time

seed, prefix = int(sys.argv[1]), sys.argv[2]
now = int(sys.argv[3]) if len(sys.argv) > 3 else int(time.time() * 1000)
DAY = 86400 * 1000
TIMESTAMPS = ([1000 + i for i in range(4)] + [now - 2 * DAY + i * 1000 for i in range(4)]
              + [now - 3600 * 1000 + i * 1000 for i in range(4)])
ROWS = [f"r{i:02d}" for i in range(24)]
QUALS = ["", "a", "b", "c"]
CELL_TTL = 100 * 365 * DAY  # cell TTL tag of the tagged table: far in the future for every ts

BASE = {"compression": "SNAPPY", "encoding": "FAST_DIFF", "bloom": "ROW", "max_versions": 2}


ALL_DELETES = ("Delete", "DeleteColumn", "DeleteFamily", "DeleteFamilyVersion", "Row")


def case(table, attr, create, alter_set, statement, config=None, tags=False,
         deletes=ALL_DELETES, hbase_stuck=False):
    """create: family settings overriding BASE; alter_set: the changed descriptor values;
    deletes: the kinds of delete kept from the common sequence (the others left out);
    hbase_stuck: HBase 2.6.4 is known not to finish its own major compaction of this table
    (check_alter_attrs.py then checks hfile-alter's side alone, see there)."""
    fam = dict(BASE, **create)
    return {"table": table, "attr": attr, "family": fam, "set": alter_set,
            "configuration": config or {}, "statement": statement, "tags": tags,
            "deletes": list(deletes), "hbase_stuck": hbase_stuck}


CASES = [
    case("a_comp_zstd", "COMPRESSION SNAPPY->ZSTD", {}, {"COMPRESSION": "ZSTD"},
         "{NAME => 'f', COMPRESSION => 'ZSTD'}"),
    case("a_comp_gz", "COMPRESSION NONE->GZ", {"compression": "NONE"}, {"COMPRESSION": "GZ"},
         "{NAME => 'f', COMPRESSION => 'GZ'}"),
    case("a_enc_fast_diff", "DATA_BLOCK_ENCODING NONE->FAST_DIFF", {"encoding": "NONE"},
         {"DATA_BLOCK_ENCODING": "FAST_DIFF"}, "{NAME => 'f', DATA_BLOCK_ENCODING => 'FAST_DIFF'}"),
    case("a_enc_row_index", "DATA_BLOCK_ENCODING FAST_DIFF->ROW_INDEX_V1", {},
         {"DATA_BLOCK_ENCODING": "ROW_INDEX_V1"},
         "{NAME => 'f', DATA_BLOCK_ENCODING => 'ROW_INDEX_V1'}"),
    case("a_enc_none", "DATA_BLOCK_ENCODING PREFIX->NONE", {"encoding": "PREFIX"},
         {"DATA_BLOCK_ENCODING": "NONE"}, "{NAME => 'f', DATA_BLOCK_ENCODING => 'NONE'}"),
    case("a_blocksize", "BLOCKSIZE 65536->1024", {}, {"BLOCKSIZE": "1024"},
         "{NAME => 'f', BLOCKSIZE => 1024}"),
    case("a_bloom_rowcol", "BLOOMFILTER ROW->ROWCOL", {}, {"BLOOMFILTER": "ROWCOL"},
         "{NAME => 'f', BLOOMFILTER => 'ROWCOL'}"),
    case("a_bloom_prefix", "BLOOMFILTER ROW->ROWPREFIX_FIXED_LENGTH(2)", {},
         {"BLOOMFILTER": "ROWPREFIX_FIXED_LENGTH"},
         "{NAME => 'f', BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH', "
         "CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => '2'}}",
         config={"RowPrefixBloomFilter.prefix_length": "2"}),
    case("a_compress_tags", "COMPRESS_TAGS true->false (cells with TTL tags)", {},
         {"COMPRESS_TAGS": "false"}, "{NAME => 'f', COMPRESS_TAGS => false}", tags=True),
    case("a_versions", "VERSIONS 3->1", {"max_versions": 3}, {"VERSIONS": "1"},
         "{NAME => 'f', VERSIONS => 1}"),
    case("a_minver_ttl", "MIN_VERSIONS 1 + TTL 86400", {"max_versions": 3},
         {"MIN_VERSIONS": "1", "TTL": "86400"}, "{NAME => 'f', MIN_VERSIONS => 1, TTL => 86400}"),
    # Last: HBase 2.6.4's own major compaction never finishes (a RegionServer compaction
    # thread spinning in StoreScanner.next) after TTL 86400 with Delete / DeleteColumn markers
    # older than the TTL (a_ttl_cols, a_ttl; a client scan of those tables spins too), and after
    # KEEP_DELETED_CELLS TRUE with family or row deletes (a_keep_deleted); a stuck compaction
    # holds a compaction thread for good. The same changes over the puts alone (a_ttl_puts) and
    # over puts + column deletes (a_kdc_cols) do finish and are compared.
    case("a_ttl_puts", "TTL 86400 (puts only)", {}, {"TTL": "86400"},
         "{NAME => 'f', TTL => 86400}", deletes=()),
    case("a_ttl_cols", "TTL 86400 (puts, Delete, DeleteColumn)", {}, {"TTL": "86400"},
         "{NAME => 'f', TTL => 86400}", deletes=("Delete", "DeleteColumn"), hbase_stuck=True),
    case("a_kdc_cols", "KEEP_DELETED_CELLS TRUE (puts, Delete, DeleteColumn)", {},
         {"KEEP_DELETED_CELLS": "TRUE"}, "{NAME => 'f', KEEP_DELETED_CELLS => 'TRUE'}",
         deletes=("Delete", "DeleteColumn")),
    case("a_keep_deleted", "KEEP_DELETED_CELLS TRUE", {}, {"KEEP_DELETED_CELLS": "TRUE"},
         "{NAME => 'f', KEEP_DELETED_CELLS => 'TRUE'}", hbase_stuck=True),
    case("a_ttl", "TTL 86400", {}, {"TTL": "86400"}, "{NAME => 'f', TTL => 86400}",
         hbase_stuck=True),
]
# A compaction or scan not finished after this long is reported as such (ClusterCommand), the
# HBase run then ends without a clean shutdown (the stuck RegionServer thread cannot stop).
TIMEOUT_S = 20


def op(**kw):
    return json.dumps(dict(kw), separators=(",", ":"))


def after(c):
    """The family's file-writing settings once altered: what each store file must say."""
    fam = dict(c["family"])
    s = c["set"]
    fam["compression"] = s.get("COMPRESSION", fam["compression"])
    fam["encoding"] = s.get("DATA_BLOCK_ENCODING", fam["encoding"])
    fam["bloom"] = s.get("BLOOMFILTER", fam["bloom"])
    fam["blocksize"] = int(s.get("BLOCKSIZE", 65536))
    fam["bloom_param"] = (int(c["configuration"]["RowPrefixBloomFilter.prefix_length"])
                          if fam["bloom"] == "ROWPREFIX_FIXED_LENGTH" else None)
    fam["compress_tags"] = s.get("COMPRESS_TAGS", "true") == "true"
    return fam


def load_ops(c):
    rng = random.Random(seed)  # the same operations in every table
    t = c["table"]
    ops = []
    for _ in range(4):
        for _ in range(60):
            row, q, ts = rng.choice(ROWS), rng.choice(QUALS), rng.choice(TIMESTAMPS)
            kind = rng.random()
            dk = ("Delete" if kind < 0.80 else "DeleteColumn" if kind < 0.88 else
                  "DeleteFamily" if kind < 0.93 else "DeleteFamilyVersion" if kind < 0.97
                  else "Row")
            if kind >= 0.72 and dk not in c["deletes"]:
                continue  # deletes draw nothing more: the other tables' sequence is kept
            if kind < 0.72:
                put = dict(op="put", table=t, row=row, family="f", qualifier=q,
                           value=f"v{rng.randrange(1000)}" + "x" * rng.randrange(120),
                           timestamp=ts)
                if c["tags"]:
                    put["ttl"] = CELL_TTL
                ops.append(op(**put))
            elif kind < 0.80:
                ops.append(op(op="delete", table=t, row=row, family="f", qualifier=q,
                              type="Delete", timestamp=ts))
            elif kind < 0.88:
                ops.append(op(op="delete", table=t, row=row, family="f", qualifier=q,
                              type="DeleteColumn", timestamp=ts))
            elif kind < 0.93:
                ops.append(op(op="delete", table=t, row=row, family="f", type="DeleteFamily",
                              timestamp=ts))
            elif kind < 0.97:
                ops.append(op(op="delete", table=t, row=row, family="f",
                              type="DeleteFamilyVersion", timestamp=ts))
            else:
                ops.append(op(op="delete", table=t, row=row, timestamp=ts))
        ops.append(op(op="flush", table=t))
    return ops


def reads(t):
    return [op(op="describe", table=t), op(op="scan", table=t, timeout_s=TIMEOUT_S),
            op(op="scan", table=t, raw=False, timeout_s=TIMEOUT_S)]


load, alter, read = [], [], []
for c in CASES:
    t = c["table"]
    fam = dict(name="f", **c["family"])
    load.append(op(op="create", table=t, families=[fam]))
    load += load_ops(c)
    alt = dict(op="alter", table=t, family="f", set=c["set"])
    if c["configuration"]:
        alt["configuration"] = c["configuration"]
    alter.append(op(**alt))
    alter.append(op(op="compact", table=t, major=True, timeout_s=TIMEOUT_S))
    read += reads(t)
    c["after"] = after(c)
    c["statement"] = f"alter '{t}', " + c["statement"]
with open(prefix + ".load.jsonl", "w") as f:
    f.write("\n".join(load) + "\n")
with open(prefix + ".alter.jsonl", "w") as f:
    f.write("\n".join(alter + read) + "\n")
with open(prefix + ".after.jsonl", "w") as f:
    f.write("\n".join(read) + "\n")
with open(prefix + ".cases.json", "w") as f:
    json.dump({"now": now, "timeout_s": TIMEOUT_S, "cases": CASES}, f, indent=1)
