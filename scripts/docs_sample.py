#!/usr/bin/env python3
"""Writes the design guide's `docs` sample as `hfile bulkload` input (JSON lines).

usage: docs_sample.py [--docs N] [--folders N] [--seed S] [--base-ms MS] OUT_DIR

OUT_DIR/docs.jsonl       for the two-family table: per document one line of family m
                         (title, owner, size, mtime) at the document's mtime, and three lines
                         of family b (body: the HTML of revisions 1-3) at their own timestamps
OUT_DIR/docs_twin.jsonl  the same cells for the one-family twin: b:body becomes m:body (m is
                         --twin-family, e.g. a long name for the copy-family demo)
OUT_DIR/folders.txt      one line per folder: its row prefix (8 hex digits), a tab, its path

Row key = the first 8 hex digits of md5(folder path) + the document id, so that listing a
folder is a row-prefix scan (`hfile dump --prefix <8 hex>`), and rows spread evenly over the
hex SPLITS ['2', '4', '6', '8', 'a', 'c', 'e']. Load with e.g.
  hfile bulkload --format json --table TABLE_DIR --into OUT_DIR/docs.jsonl

The output is the same for the same arguments (a seeded generator, fixed timestamps; no clock).
The default --base-ms is 2026-11-01T00:00:00Z: family b's TTL (90 days) expires those cells
in a running HBase from 2027-01-30 on; pass a recent time to keep them live longer.
"""
import argparse
import hashlib
import json
import os
import random
import sys

WORDS = (
    "region store family block index bloom cache flush compaction split merge table row "
    "column qualifier timestamp version value cell scan get put delete marker sequence file "
    "directory server master client replica snapshot archive link reference descriptor codec "
    "encoding checksum header trailer offset size budget quarter report draft review meeting "
    "contract invoice design proposal roadmap release customer support ticket incident "
    "summary appendix figure chart metric latency throughput capacity storage network"
).split()
OWNERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
DAY_MS = 86_400_000


def sentence(rng):
    n = rng.randint(8, 18)
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def paragraph(rng):
    return " ".join(sentence(rng) for _ in range(rng.randint(3, 7)))


def body(title, paragraphs, rev):
    out = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<title>{title}</title>\n<link rel=\"stylesheet\" href=\"/static/docs.css\">\n",
        "</head>\n<body>\n<header><nav><a href=\"/\">Home</a> | <a href=\"/folders\">Folders</a>"
        "</nav></header>\n<main>\n",
        f"<h1>{title}</h1>\n<p class=\"meta\">Revision {rev}</p>\n",
    ]
    for i, p in enumerate(paragraphs):
        if i % 6 == 0:
            out.append(f"<h2 id=\"s{i // 6 + 1}\">Section {i // 6 + 1}</h2>\n")
        out.append(f"<p>{p}</p>\n")
    out.append("</main>\n<footer><p>Generated sample document.</p></footer>\n</body>\n</html>\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--folders", type=int, default=50)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--base-ms", type=int, default=1_793_491_200_000)
    ap.add_argument("--body-bytes", type=int, default=40_000, help="approximate body size")
    ap.add_argument("--twin-family", default="m", help="the one-family twin's family name")
    ap.add_argument("out_dir")
    a = ap.parse_args()
    if a.docs < 1 or a.folders < 1 or a.body_bytes < 1:
        ap.error("--docs, --folders and --body-bytes must be positive")
    os.makedirs(a.out_dir, exist_ok=True)
    rng = random.Random(a.seed)
    folders = [f"/teams/{OWNERS[i % len(OWNERS)]}/project-{i:03d}" for i in range(a.folders)]
    prefixes = [hashlib.md5(f.encode()).hexdigest()[:8] for f in folders]
    with open(os.path.join(a.out_dir, "folders.txt"), "w") as f:
        for p, path in zip(prefixes, folders):
            f.write(f"{p}\t{path}\n")

    two = open(os.path.join(a.out_dir, "docs.jsonl"), "w")
    twin = open(os.path.join(a.out_dir, "docs_twin.jsonl"), "w")
    dumps = lambda d: json.dumps(d, separators=(",", ":")) + "\n"
    for doc in range(a.docs):
        folder = rng.randrange(a.folders)
        doc_id = f"doc-{doc:06d}"
        row = prefixes[folder] + doc_id
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5))).title()
        owner = rng.choice(OWNERS)
        created = a.base_ms - rng.randint(30, 60) * DAY_MS - rng.randrange(DAY_MS)
        # Revision 1, then two edits: some paragraphs rewritten, one appended each time.
        paragraphs = []
        while sum(len(p) + 8 for p in paragraphs) < a.body_bytes:
            paragraphs.append(paragraph(rng))
        revisions, ts = [], created
        for rev in (1, 2, 3):
            if rev > 1:
                for _ in range(max(1, len(paragraphs) // 10)):
                    paragraphs[rng.randrange(len(paragraphs))] = paragraph(rng)
                paragraphs.append(paragraph(rng))
                ts += rng.randint(1, 20) * DAY_MS + rng.randrange(DAY_MS)
            revisions.append((ts, body(title, paragraphs, rev)))
        mtime, last_body = revisions[-1][0], revisions[-1][1]
        meta = {"HBASE_ROW_KEY": row, "HBASE_TS_KEY": mtime, "m:title": title, "m:owner": owner,
                "m:size": str(len(last_body.encode())), "m:mtime": str(mtime)}
        two.write(dumps(meta))
        twin.write(dumps({k.replace("m:", a.twin_family + ":", 1): v for k, v in meta.items()}))
        for ts, html in revisions:
            two.write(dumps({"HBASE_ROW_KEY": row, "HBASE_TS_KEY": ts, "b:body": html}))
            twin.write(dumps({"HBASE_ROW_KEY": row, "HBASE_TS_KEY": ts, a.twin_family + ":body": html}))
    two.close()
    twin.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
