#!/usr/bin/env python3
"""check_rename_peers.py WORK_DIR MAN_PAGE: what each way of copying family f under a new name kept
(check_rename_peers.sh has run everything), measured against f itself:

  store files, read by HBase's reader (WORK/read-F/*.jsonl): Put cells (versions), cells under a
  delete marker, delete markers by type, TTL tags, timestamps, sequence ids;
  HBase's client scan (WORK/after.out, after the restart): what a client reads of each family;
  and HBase's raw and client scans of g must be f's;
  the raw scan before the last flush (WORK/load.out): the copies' memstores.

The measured facts are asserted (EXPECTED below, so that the table stays true), rendered as the
table of MAN_PAGE's "Compared with HBase's tools" section, and that table must be in MAN_PAGE as
rendered here."""
import collections
import glob
import json
import sys

work, man_page = sys.argv[1], sys.argv[2]
# family -> what made it (see gen_rename_peers_script.py).
COPIES = {"c1": "CopyTable (defaults)", "c2": "CopyTable --all.cells --versions=MAX",
          "c3": "c2 + tags codec", "e": "Export (raw, all versions) + Import rename",
          "e2": "e + tags codec", "g": "hfile-copy-family"}
# Per copy, the cells of the table (see ROWS); c3 and e2 only differ from c2 and e in tags.
EXPECTED = {
    "c1": ["24/78 newest", "0/9", "0/4", "0/24", "kept", "0/24, 1 new", "differs"],
    "c2": ["69/78", "0/9", "4/4", "0/24", "kept", "0/73, 1 new", "same"],
    "c3": ["69/78", "0/9", "4/4", "22/24", "kept", "0/73, 1 new", "same"],
    "e": ["69/78", "0/9", "4/4", "0/24", "kept", "0/73, 1 new", "same"],
    "e2": ["69/78", "0/9", "4/4", "22/24", "kept", "0/73, 1 new", "same"],
    "g": ["78/78", "9/9", "4/4", "24/24", "kept", "82/82", "same"],
}
ROWS = ["Put cells (versions)", "cells under a marker", "delete markers", "TTL tags",
        "timestamps", "sequence ids", "client scan"]


def store_cells(family):
    cells = []
    for path in sorted(glob.glob(f"{work}/read-{family}/*.jsonl")):
        for line in open(path):
            r = json.loads(line)
            if r["kind"] == "cell":
                cells.append(r)
    assert cells, f"no store file cells of family {family}"
    return cells


def key(c):
    """A cell without its family, tags and sequence id: what a copy must reproduce."""
    return (c["row"], c["qualifier"], c["timestamp"], c["type"], c["value"])


def scans(path):
    """The scans of a `cluster` run's output, in order, each as family -> cell keys: a raw scan
    (markers and the cells under them included), then a client scan (all versions, deletes
    applied) if the script has one."""
    runs = [[]]
    for line in open(path):
        r = json.loads(line)
        if r["kind"] == "scan":
            runs.append([])
        elif r["kind"] == "cell":
            runs[-1].append(r)
    out = []
    for cells in runs:
        by_family = collections.defaultdict(list)
        for c in cells:
            by_family[c["family"]].append(key(c))
        out.append(by_family)
    return out


f = store_cells("f")
f_by_key = {}
for c in f:
    assert key(c) not in f_by_key, f"f has two cells {key(c)}"
    f_by_key[key(c)] = c
raw, client = scans(f"{work}/after.out")
memstore = scans(f"{work}/load.out")[0]
# HBase restarted on our copy scans g exactly as f (family aside), raw and as a client.
assert raw["g"] == raw["f"] and client["g"] == client["f"], "HBase scans g differently from f"
live = set(client["f"])  # the Puts a client reads: those no marker covers
f_puts = [c for c in f if c["type"] == "Put"]
f_deleted = [c for c in f_puts if key(c) not in live]
f_markers = collections.Counter(c["type"] for c in f if c["type"] != "Put")
f_tagged = [c for c in f if c["tags"]]
columns = {(c["row"], c["qualifier"]) for c in f_puts}
# The data must be what the table talks about: every marker kind, cells under them, tags.
assert sorted(f_markers) == ["Delete", "DeleteColumn", "DeleteFamily", "DeleteFamilyVersion"]
assert len(f_deleted) > 0 and len(f_tagged) > 0 and len(f_puts) > len(columns)
assert all(t["type"] == 8 for c in f_tagged for t in c["tags"])

measured = {}
for fam in COPIES:
    cells = store_cells(fam)
    unknown = [c for c in cells if key(c) not in f_by_key]
    assert not unknown, f"{fam} has cells f does not have (timestamp or value changed): {unknown[:3]}"
    puts = [c for c in cells if c["type"] == "Put"]
    markers = collections.Counter(c["type"] for c in cells if c["type"] != "Put")
    assert all(markers[t] <= n for t, n in f_markers.items()) and set(markers) <= set(f_markers)
    per_column = collections.Counter((c["row"], c["qualifier"]) for c in puts)
    newest = {}
    for c in f_puts:
        col = (c["row"], c["qualifier"])
        if key(c) in live and (col not in newest or c["timestamp"] > newest[col]["timestamp"]):
            newest[col] = c
    versions = f"{len(puts)}/{len(f_puts)}"
    if sorted(key(c) for c in puts) == sorted(key(c) for c in newest.values()):
        versions += " newest"
    else:
        # Not only the newest: then every Put a client reads of f must be there.
        assert {key(c) for c in puts} >= live, f"{fam} lost cells a client reads of f"
    under = sum(1 for c in puts if key(c) not in live)
    tags_kept = sum(1 for c in cells if c["tags"] and c["tags"] == f_by_key[key(c)]["tags"])
    assert all(c["tags"] == f_by_key[key(c)]["tags"] for c in cells if c["tags"]), fam
    same_seq = sum(1 for c in cells if c["seqid"] == f_by_key[key(c)]["seqid"])
    seqids = f"{same_seq}/{len(cells)}"
    if same_seq < len(cells):
        new_ids = {c["seqid"] for c in cells} - {c["seqid"] for c in f}
        seqids += f", {len(new_ids)} new"
    # Timestamps: every cell matched f's by (row, qualifier, timestamp, type, value) above.
    measured[fam] = [
        versions, f"{under}/{len(f_deleted)}",
        f"{sum(markers.values())}/{sum(f_markers.values())}",
        f"{tags_kept}/{len(f_tagged)}", "kept", seqids,
        "same" if sorted(client[fam]) == sorted(client["f"]) else "differs",
    ]
    print(f"check_rename_peers: {fam} ({COPIES[fam]}): "
          + "; ".join(f"{r}: {v}" for r, v in zip(ROWS, measured[fam])))

# The raw copies did write the cells under markers: before the flush their memstores held
# exactly f's raw scan; HBase's flush dropped those cells (the man page says so).
for fam in ("c2", "c3", "e", "e2"):
    assert sorted(memstore[fam]) == sorted(memstore["f"]), f"{fam} before the flush is not f"
assert len([k for k in memstore["c1"] if k[3] == "Put"]) == len(columns)

bad = {fam: (measured[fam], EXPECTED[fam]) for fam in COPIES if measured[fam] != EXPECTED[fam]}
assert not bad, "measured (left) differs from the table (right): " + json.dumps(bad)
# c3/e2 are c2/e with the tags codec: the table shows them in c2's and e's tags cells.
for plain, codec in (("c2", "c3"), ("e", "e2")):
    assert measured[plain][:3] + measured[plain][4:] == measured[codec][:3] + measured[codec][4:]

WIDTH = (22, 16, 17, 17, 17)
head = [("", "CopyTable", "CopyTable", "Export raw +", "hfile"),
        ("", "(defaults)", "--all.cells", "Import rename", "copy-family")]
body = []
for i, row in enumerate(ROWS):
    cells = [measured["c1"][i], measured["c2"][i], measured["e"][i], measured["g"][i]]
    if row == "TTL tags":
        cells[1] += f", codec {measured['c3'][i].split('/')[0]}"
        cells[2] += f", codec {measured['e2'][i].split('/')[0]}"
    body.append((row, *cells))
table = ["".join(c.ljust(w) for c, w in zip(r, WIDTH)).rstrip() for r in head + body]
rendered = "\n".join("    " + l for l in table)
print(rendered)
text = open(man_page).read()
assert rendered in text, f"{man_page} does not hold the measured table above (indented 4)"
print(f"check_rename_peers: {man_page}'s table is what was measured")
