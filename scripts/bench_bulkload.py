#!/usr/bin/env python3
"""`hfile bulkload` against HBase's ImportTsv and against its write floor (bench.sh
--bulkload-only; called from bench.py, which owns the command line).

One generated TSV, ImportTsv-like: a row key (rows in a scrambled order, so the sort has work)
and four columns of one family d (SNAPPY, the default ROW bloom), table pre-split in two.
  1. A local HBase (the Java harness) creates the table and runs HBase's ImportTsv on it:
     LocalJobRunner with two map and two reduce tasks at a time (both cores, one reducer per
     region), -Dimporttsv.bulk.output; the job's own wall time (ImportTsvJob), warm JVM
     excluded only for the cluster start. On a slice of the input when --bulkload-importtsv-bytes
     says so (MB/s are per input byte, so they compare).
  2. With HBase stopped, `hfile bulkload --memory 256M` of the whole input against the table's
     directory, each run its own process under GNU time (peak RSS must be <= --memory + 64 MiB).
  3. The floor: the cells bulkload wrote, dumped untimed into a cells file in region order, then
     written again by hfile-bulkload-floor (the store writer with the same family settings and
     region cuts: encode, compress, checksum, write, fsync, verify; no parse, no sort).
Runs of 2 and 3 alternate; ratios are medians of run-by-run ratios. Writes bulkload.md and
bulkload.json.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

COLUMNS = "HBASE_ROW_KEY,d:c1,d:c2,d:c3,d:c4"
FAMILY = "d"
MEMORY = "256M"
MEMORY_BYTES = 256 << 20
NOW_MS = 1750000000000  # --now and -Dimporttsv.timestamp: the same cells on both sides


def row_of(i, n):
    # A bijection of [0, n) (multiplier prime to n): every row once, in a scrambled order.
    m = 2654435761
    while gcd(m, n) != 1:
        m += 2
    return "r%010d" % ((i * m) % n)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def generate_tsv(path, target_bytes):
    """Writes about target_bytes of TSV; returns (bytes, lines, split row)."""
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
             "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"]
    pool = []
    for k in range(4099):  # values of 8..70 bytes, text-like
        w = " ".join(words[(k * 7 + j * 3) % len(words)] for j in range(1 + k % 9))
        pool.append((w + " %d" % k)[: 8 + (k * 37) % 63])
    avg = 12 + sum(len(v) + 1 for v in pool) / len(pool) * 4
    n = int(target_bytes / avg)
    total = 0
    with open(path, "w", encoding="ascii", buffering=8 << 20) as f:
        chunk = []
        for i in range(n):
            h = (i * 40503) & 0xFFFFFF
            chunk.append("%s\t%s\t%s\t%s\t%s\n" % (row_of(i, n), pool[h % 4099],
                                                   pool[(h >> 3) % 4099], pool[(h >> 6) % 4099],
                                                   pool[(h >> 9) % 4099]))
            if len(chunk) == 65536:
                s = "".join(chunk)
                total += len(s)
                f.write(s)
                chunk = []
        s = "".join(chunk)
        total += len(s)
        f.write(s)
    return total, n, "r%010d" % (n // 2)


def slice_tsv(src, dst, nbytes):
    """The first whole lines of src up to nbytes; returns (bytes, lines)."""
    total = lines = 0
    with open(src, "rb") as i, open(dst, "wb") as o:
        for line in i:
            if total + len(line) > nbytes:
                break
            o.write(line)
            total += len(line)
            lines += 1
    return total, lines


def timed(cmd, scratch):
    """Runs cmd under GNU time -v; returns (stdout, rc, wall s, peak RSS KiB or None)."""
    tfile = os.path.join(scratch, "time-v.txt")
    tbin = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    full = ([tbin, "-v", "-o", tfile] if tbin else []) + cmd
    t = time.monotonic()
    p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.monotonic() - t
    if p.returncode != 0:
        sys.stderr.write(f"bench: {' '.join(cmd)} exited {p.returncode}\n"
                         f"{p.stderr.decode()[-3000:]}\n")
    rss = None
    if tbin:
        for line in open(tfile):
            if "Maximum resident set size" in line:
                rss = int(line.split(":")[1])
    return p.stdout.decode(), p.returncode, wall, rss


def mbps(nbytes, seconds):
    return nbytes / seconds / 1e6 if seconds > 0 else 0.0


def run(a, build, harness_build):
    work = os.path.join(a.work, "bulkload")
    os.makedirs(work, exist_ok=True)
    bulkload_bin = os.path.join(build, "bin", "hfile-bulkload")
    floor_bin = os.path.join(build, "bench", "hfile-bulkload-floor")
    target = a.bulkload_bytes or ((64 << 20) if a.quick else (1 << 30))
    tsv = os.path.join(work, "in.tsv")
    print(f"bench: bulkload: generating {target >> 20} MiB of TSV", file=sys.stderr, flush=True)
    in_bytes, lines, split_row = generate_tsv(tsv, target)
    splits = os.path.join(work, "splits.txt")
    open(splits, "w").write(split_row + "\n")

    # 1. HBase: create the table, ImportTsv (on a slice if asked).
    it_dir = os.path.join(work, "importtsv-in")
    os.makedirs(it_dir, exist_ok=True)
    it_bytes, it_lines = in_bytes, lines
    if a.bulkload_importtsv_bytes and a.bulkload_importtsv_bytes < in_bytes:
        it_bytes, it_lines = slice_tsv(tsv, os.path.join(it_dir, "in.tsv"),
                                       a.bulkload_importtsv_bytes)
    else:
        os.link(tsv, os.path.join(it_dir, "in.tsv"))
    hroot = os.path.join(work, "hbase")
    shutil.rmtree(hroot, ignore_errors=True)
    script = os.path.join(work, "script.jsonl")
    ops = [{"op": "create", "table": "bl", "splits": [split_row],
            "families": [{"name": FAMILY, "compression": "snappy"}]}]
    if not a.no_hbase:
        ops.append({"op": "mapreduce", "table": "bl", "tool": "ImportTsv", "args": [
            f"-Dimporttsv.columns={COLUMNS}", f"-Dimporttsv.timestamp={NOW_MS}",
            f"-Dimporttsv.bulk.output={work}/importtsv-out", f"-Dhbase.fs.tmp.dir={work}/staging",
            "-Dmapreduce.local.map.tasks.maximum=2", "-Dmapreduce.local.reduce.tasks.maximum=2",
            "bl", it_dir]})
    with open(script, "w") as f:
        for op in ops:
            f.write(json.dumps(op) + "\n")
    mr_cp = os.path.join(harness_build, "mapreduce-classpath.txt")
    if not shutil.which("java") or not os.path.exists(mr_cp):
        # The table (its regions and descriptor) comes from a local HBase even without ImportTsv.
        sys.exit("bench: --bulkload-only needs Java and the harness with mapreduce/pom.xml's "
                 f"classpath in {harness_build} (scripts/bench.sh builds both)")
    cp = open(os.path.join(harness_build, "classpath.txt")).read().strip()
    cp += ":" + os.path.join(harness_build, "classes")
    cp += ":" + open(mr_cp).read().strip()
    # Full JIT and G1 as bench.py's HBase peer; a heap for two map tasks' sort buffers.
    java = ["java", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Xms2g", "-Xmx6g",
            "-cp", cp, "org.hfilekit.harness.Main", "cluster", "--root", hroot, "--script", script]
    print(f"bench: bulkload: HBase ImportTsv on {it_bytes >> 20} MiB", file=sys.stderr, flush=True)
    p = subprocess.run(java, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"bench: the HBase run failed:\n{p.stderr.decode()[-4000:]}")
    importtsv = None
    for line in p.stdout.decode().splitlines():
        o = json.loads(line)
        if o.get("kind") == "mapreduce":
            importtsv = o
    shutil.rmtree(os.path.join(work, "importtsv-out"), ignore_errors=True)
    shutil.rmtree(os.path.join(hroot, "mapred"), ignore_errors=True)
    shutil.rmtree(it_dir, ignore_errors=True)
    table_dir = os.path.join(hroot, "hbase", "data", "default", "bl")

    # 2 + 3, alternating.
    runs = []
    reps = a.reps
    cells_file = os.path.join(work, "cells.bin")
    for r in range(reps):
        out = os.path.join(work, "out")
        shutil.rmtree(out, ignore_errors=True)
        cmd = [bulkload_bin, "--json", "--no-progress", "--memory", MEMORY, "--table", table_dir,
               "--out", out, "--temp-dir", work, "--now", str(NOW_MS),
               f"-Dimporttsv.columns={COLUMNS}", tsv]
        stdout, rc, wall, rss = timed(cmd, work)
        rep = json.loads(stdout) if rc == 0 else {}
        runs.append({"impl": "hfile-bulkload", "rep": r, "ok": rc == 0, "seconds": wall,
                     "peak_rss_kib": rss, "cells": rep.get("cells_written"),
                     "files": len(rep.get("files", [])), "bytes_out": rep.get("bytes"),
                     "sort_runs": rep.get("sort", {}).get("runs"),
                     "spilled_bytes": rep.get("sort", {}).get("spilled_bytes")})
        print(f"bench: bulkload run {r}: {wall:.1f} s, {mbps(in_bytes, wall):.1f} MB/s, "
              f"peak RSS {rss} KiB", file=sys.stderr, flush=True)
        if rc != 0:
            break
        if r == 0:  # the floor's input: the same cells, in region order (untimed)
            files = sorted(rep["files"], key=lambda f: [x["start"] for x in rep["regions"]
                                                        if x["region"] == f["region"]][0])
            d = subprocess.run([floor_bin, "dump", "--out", cells_file] +
                               [f["path"] for f in files], capture_output=True, text=True)
            if d.returncode != 0:
                sys.exit(f"bench: floor dump failed: {d.stderr}")
        fout = os.path.join(work, "floor-out")
        shutil.rmtree(fout, ignore_errors=True)
        os.makedirs(fout)
        stdout, frc, fwall, frss = timed([floor_bin, "write", "--table", table_dir, "--family",
                                          FAMILY, "--cells", cells_file, "--out", fout,
                                          "--splits", splits], work)
        frep = json.loads(stdout) if frc == 0 else {}
        runs.append({"impl": "floor", "rep": r, "ok": frc == 0, "seconds": fwall,
                     "peak_rss_kib": frss, "cells": frep.get("cells"), "files": frep.get("files"),
                     "cell_bytes": frep.get("bytes")})
        print(f"bench: floor run {r}: {fwall:.1f} s", file=sys.stderr, flush=True)
        shutil.rmtree(fout, ignore_errors=True)
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    if os.path.exists(cells_file):
        os.remove(cells_file)

    ours = [x for x in runs if x["impl"] == "hfile-bulkload" and x["ok"]]
    floor = [x for x in runs if x["impl"] == "floor" and x["ok"]]
    pairs = list(zip(ours, floor))
    summary = {
        "input_bytes": in_bytes, "lines": lines, "columns": COLUMNS, "memory": MEMORY,
        "cells": ours[0]["cells"] if ours else None,
        "cell_bytes": floor[0]["cell_bytes"] if floor else None,
        "bulkload_mbps": statistics.median(mbps(in_bytes, x["seconds"]) for x in ours) if ours else None,
        "floor_mbps": statistics.median(mbps(in_bytes, x["seconds"]) for x in floor) if floor else None,
        "bulkload_vs_floor": statistics.median(f["seconds"] / o["seconds"] for o, f in pairs)
        if pairs else None,
        "peak_rss_kib": max((x["peak_rss_kib"] or 0) for x in ours) if ours else None,
        "rss_limit_kib": (MEMORY_BYTES + (64 << 20)) >> 10,
    }
    summary["rss_ok"] = summary["peak_rss_kib"] is not None and \
        summary["peak_rss_kib"] <= summary["rss_limit_kib"]
    if importtsv:
        summary.update(importtsv_bytes=it_bytes, importtsv_lines=it_lines,
                       importtsv_seconds=importtsv["seconds"],
                       importtsv_mbps=mbps(it_bytes, importtsv["seconds"]),
                       importtsv_cells=importtsv["reduce_output_records"])
        if ours:
            summary["bulkload_vs_importtsv"] = summary["bulkload_mbps"] / summary["importtsv_mbps"]
    meta = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "cpus": os.cpu_count(),
            "loadavg_start": open("/proc/loadavg").read().split()[:3], "reps": reps,
            "work_dir": work,
            "git": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                  capture_output=True, text=True).stdout.strip()}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "bulkload.json"), "w") as f:
        json.dump({"meta": meta, "summary": summary, "importtsv": importtsv, "runs": runs}, f,
                  indent=1)
    write_md(meta, summary, os.path.join(a.out, "bulkload.md"))
    shutil.rmtree(work, ignore_errors=True)


def write_md(meta, s, path):
    def x(v):
        return f"{v:.2f}x" if v is not None else "n/a"

    def m(v):
        return f"{v:.1f}" if v is not None else "n/a"

    lines = [
        "# hfile bulkload: TSV to HFiles against ImportTsv and the write floor", "",
        f"{s['input_bytes'] / 2**20:.0f} MiB of TSV ({s['lines']} lines, `{s['columns']}`, family "
        f"d SNAPPY, bloom ROW, table pre-split in two), {s['cells']} cells; {meta['reps']} runs "
        f"of ours and of the floor, alternating; git {meta['git']}, {meta['date']}; load average "
        f"at the start {' '.join(meta['loadavg_start'])} on {meta['cpus']} cores.", "",
        "MB/s = input TSV bytes (10^6) / wall seconds. hfile bulkload: the whole process "
        f"(`--memory {s['memory']}`, parse, external sort with spills, write, fsync, verify, "
        "publish). ImportTsv: HBase 2.6.4's job in LocalJobRunner (2 map and 2 reduce tasks at "
        "a time, -Dimporttsv.bulk.output), from job setup to completion, inside a JVM that "
        "already started the local HBase. Floor: the same cells already sorted, written by the "
        "store writer with the same family settings and region cuts (encode, compress, "
        "checksum, write, fsync, verify), no parsing, no sort. Ratios: medians of run-by-run "
        "ratios (vs ImportTsv: of MB/s).", "",
        "| | MB/s | ratio | target |", "|---|---|---|---|",
        f"| hfile bulkload | {m(s['bulkload_mbps'])} | | |",
        f"| floor | {m(s['floor_mbps'])} | bulkload / floor {x(s['bulkload_vs_floor'])} | >= 0.5x |",
    ]
    if s.get("importtsv_mbps") is not None:
        sl = "" if s["importtsv_bytes"] == s["input_bytes"] else \
            f" (on the first {s['importtsv_bytes'] / 2**20:.0f} MiB, {s['importtsv_lines']} lines)"
        lines.append(f"| ImportTsv{sl} | {m(s['importtsv_mbps'])} | bulkload / ImportTsv "
                     f"{x(s.get('bulkload_vs_importtsv'))} | >= 10x |")
    lines += ["", f"Peak RSS of hfile bulkload (GNU time -v, max of the runs): "
              f"{(s['peak_rss_kib'] or 0) / 1024:.1f} MiB; limit --memory + 64 MiB = "
              f"{s['rss_limit_kib'] / 1024:.0f} MiB: {'ok' if s['rss_ok'] else 'EXCEEDED'}.", "",
              "The machine is shared (2 cores, other builds running): absolute figures move "
              "between runs, the ratios of one run are what count."]
    open(path, "w").write("\n".join(lines) + "\n")
