#!/usr/bin/env python3
"""Runs hfilekit's comparison benchmark (scripts/bench.sh is the entry point).

Every measurement is its own process (peak RSS = that process's ru_maxrss, from wait4), except
HBase, which runs one warmed-up JVM per setting and times each operation inside it. For each
setting, the runs of hfilekit and of each peer alternate, and every ratio hfilekit/peer is taken
pair by pair (run i of hfilekit with run i of the peer) before the median is reported, so that
load from other processes on the machine hits both sides of a ratio alike.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CODECS = [("NONE", 0), ("SNAPPY", 0), ("LZ4", 0), ("ZSTD", 1), ("ZSTD", 3), ("GZ", 0)]
# `hfile alter` of the family's codec, measured in the SNAPPY settings: SNAPPY -> each of these
# (level 0: the family's default, ZSTD 3 / GZ 6, as HBase's alter leaves it).
ALTER_SOURCE = "SNAPPY"
ALTER_TARGETS = ["ZSTD", "GZ"]
ALTER_STORE_FILE = "0123456789abcdef0123456789abcdef"  # a store file name HBase accepts
ENCODINGS = ["NONE", "FAST_DIFF", "ROW_INDEX_V1"]


def codec_label(codec, level):
    return f"{codec}-{level}" if codec == "ZSTD" else codec


def run_proc(cmd, env=None):
    """Runs cmd; returns (stdout, rc, wall seconds, peak RSS KiB of that child alone)."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = b"", b""
    # communicate() would reap the child; read the pipes first, then wait4 for its rusage.
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t
    if p.returncode not in (0, 3):
        sys.stderr.write(f"bench: {' '.join(cmd)} exited {p.returncode}\n{err.decode()[-2000:]}\n")
    return out.decode(), p.returncode, wall, ru.ru_maxrss


def run_measured(cmd, scratch):
    """run_proc with the child's own peak RSS: wait4's ru_maxrss of a child this Python process
    spawns starts at the RSS of the Python process itself (the pre-exec address space counts,
    ~14-17 MiB here), so a tool using less cannot be seen; GNU time's %M (the tool is time's
    child) can. Returns (stdout, rc, wall, maxrss KiB, whether that figure is the tool's own)."""
    tbin = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    if not tbin:
        out, rc, wall, rss = run_proc(cmd)
        return out, rc, wall, rss, False
    rss_file = os.path.join(scratch, "maxrss.txt")
    out, rc, wall, rss = run_proc([tbin, "-f", "%M", "-o", rss_file] + cmd)
    try:
        rss = int(open(rss_file).read().split()[-1])
        return out, rc, wall, rss, True
    except (OSError, ValueError, IndexError):
        return out, rc, wall, rss, False


class Bench:
    def __init__(self, args):
        self.a = args
        self.bin = os.path.join(args.build, "bench", "hfile-bench")
        self.verify_bin = os.path.join(args.build, "bin", "hfile-verify")
        self.sst_dump = shutil.which("sst_dump")
        self.runs = []  # every measurement
        self.data = os.path.join(args.work, "data")
        self.harness = os.path.join(ROOT, "tests", "hbase")
        self.harness_build = args.harness_build
        self.dropped_cache = False
        self.alter_bin = os.path.join(args.build, "bin", "hfile-alter")
        self.alter_runs = []  # the alter measurements (alter.json / alter.md)
        self.ops_runs = []  # copy-family and split (ops.json / ops.md)
        self.copy_bin = os.path.join(args.build, "bin", "hfile-copy-family")
        self.split_bin = os.path.join(args.build, "bin", "hfile-split")
        self.alter_template = None  # an HBase root with an empty table "bench" (family f)

    def drop_page_cache(self):
        """Frees the page cache before a setting (root only). A setting writes ~9 files of the
        data size to tmpfs; with the cache full, those page allocations wait on reclaim at
        random moments, which swung single GiB-sized writes by 3x between runs."""
        if self.a.keep_page_cache or os.geteuid() != 0:
            return
        try:
            os.sync()
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
            self.dropped_cache = True
        except OSError:
            pass

    def record(self, rec, setting, **extra):
        rec.update(codec=setting[0], level=setting[1], encoding=setting[2], **extra)
        self.runs.append(rec)
        return rec

    def hb(self, setting, impl, op, rep, **kw):
        codec, level, enc = setting
        cmd = [self.bin, "run", "--impl", impl, "--op", op, "--codec", codec.lower(),
               "--level", str(level), "--encoding", enc, "--dir", self.data]
        for k, v in kw.items():
            cmd += ["--" + k.replace("_", "-"), str(v)]
        out, rc, wall, rss = run_proc(cmd)
        try:
            rec = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            rec = {"impl": impl, "op": op, "ok": False, "error": f"rc={rc}"}
        rec["rep"] = rep
        rec["maxrss_kb"] = rss
        if rec.get("ok") and op in ("compact",) and impl != "hbase":
            rec["bytes"] = self.part_bytes
        if rec.get("ok") and op in ("rewrite", "verify") and not rec.get("bytes"):
            rec["bytes"] = self.cell_bytes
            rec["cells"] = self.cell_count
        if rec.get("ok") and impl == "floor":
            rec["bytes"], rec["cells"] = self.cell_bytes, self.cell_count
            if op == "compact":
                rec["bytes"] = self.part_bytes
        return self.record(rec, setting)

    def cli(self, setting, impl, op, rep, cmd):
        out, rc, wall, rss = run_proc(cmd)
        rec = {"impl": impl, "op": op, "rep": rep, "ok": rc == 0, "seconds": wall,
               "cells": self.cell_count, "bytes": self.cell_bytes, "maxrss_kb": rss,
               "cmd": " ".join(cmd)}
        if rc != 0:
            rec["error"] = out[-500:]
        return self.record(rec, setting)

    def java_cmd(self):
        cp_file = os.path.join(self.harness_build, "classpath.txt")
        if not os.path.exists(cp_file) or not shutil.which("java"):
            return None
        cp = open(cp_file).read().strip() + ":" + os.path.join(self.harness_build, "classes")
        # Full JIT (no TieredStopAtLevel, unlike harness.sh's short oracle runs), G1 as a
        # RegionServer uses, a heap big enough not to thrash.
        return ["java", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Xms1g", "-Xmx2g",
                "-cp", cp, "org.hfilekit.harness.Main"]

    def generate(self):
        os.makedirs(self.data, exist_ok=True)
        out, rc, _, _ = run_proc([self.bin, "gen", "--dir", self.data, "--bytes",
                                  str(self.a.bytes), "--gets", str(self.a.gets),
                                  "--max-value", str(self.a.max_value)])
        if rc != 0:
            sys.exit("bench: generating cells failed")
        self.summary = json.loads(out)
        self.cell_bytes = self.summary["bytes"]
        self.cell_count = self.summary["cells"]
        # Input cell bytes of the compaction: the four parts hold every cell once.
        self.part_bytes = self.cell_bytes

    def setting_dir(self, setting):
        d = os.path.join(self.a.work, "files", f"{codec_label(setting[0], setting[1])}-{setting[2]}")
        os.makedirs(d, exist_ok=True)
        return d

    def run_setting(self, setting):
        codec, level, enc = setting
        d = self.setting_dir(setting)
        reps = self.a.reps
        hk_file = os.path.join(d, "hfilekit.hfile")
        rdb_file = os.path.join(d, "rocksdb.sst")
        to_codec = "zstd" if codec == "LZ4" else "lz4"
        print(f"bench: {codec_label(codec, level)} / {enc}", file=sys.stderr, flush=True)
        self.drop_page_cache()
        if self.a.table_ops_only:
            # The setting's file, untimed, then only hfile alter, copy-family and split.
            rec = self.hb(setting, "hfilekit", "write", -1, file=hk_file)
            self.runs.pop()
            if rec.get("ok") and codec == ALTER_SOURCE:
                if not self.a.no_alter:
                    self.run_alter(setting, d, hk_file)
                self.run_table_ops(setting, d, hk_file)
            return

        # 1. write (hfilekit, RocksDB alternating).
        have_writer = True
        for r in range(reps):
            rec = self.hb(setting, "hfilekit", "write", r, file=hk_file)
            have_writer = rec.get("ok", False)
            self.hb(setting, "rocksdb", "write", r, file=rdb_file)

        # 2. HBase, one JVM for all its operations (writes its files into d).
        java = self.java_cmd()
        if java and not self.a.no_hbase:
            ops = "write,scan,get,get-bloom,compact"
            cmd = java + ["bench", "--dir", self.data, "--work", d, "--compression", codec.lower(),
                          "--level", str(level), "--encoding", enc, "--ops", ops,
                          "--reps", str(reps), "--warmup", str(self.a.warmup)]
            out, rc, wall, rss = run_proc(cmd)
            for line in out.splitlines():
                if line.startswith("{"):
                    rec = json.loads(line)
                    if rec["op"] == "compact":
                        rec["bytes"] = self.part_bytes
                    rec["jvm_maxrss_kb"] = rss
                    self.record(rec, setting)
        hbase_file = os.path.join(d, "hbase.hfile")
        # The HFile the readers scan: hfilekit's own when it has a writer, else HBase's.
        ref = hk_file if have_writer else hbase_file
        if not os.path.exists(ref):
            print(f"bench: no HFile for {setting}, skipping reads", file=sys.stderr)
            return
        parts = [os.path.join(d, f"hbase-part{i}.hfile") for i in range(4)]
        have_parts = all(os.path.exists(p) for p in parts)
        if have_writer:
            # hfilekit's own part files (written with the same settings), untimed.
            hk_parts = []
            for i in range(4):
                p = os.path.join(d, f"hfilekit-part{i}.hfile")
                self.hb(setting, "hfilekit", "write", -1, file=p,
                        cells=os.path.join(self.data, f"part{i}.bin"))
                self.runs.pop()  # preparation, not a measurement
                hk_parts.append(p)
            parts, have_parts = hk_parts, True
        # RocksDB's part SSTs of the same cells (SstFileWriter, same settings), untimed: the
        # inputs of its compaction.
        rdb_parts = []
        for i in range(4):
            p = os.path.join(d, f"rocksdb-part{i}.sst")
            rec = self.hb(setting, "rocksdb", "write", -1, file=p,
                          cells=os.path.join(self.data, f"part{i}.bin"))
            self.runs.pop()
            if rec.get("ok"):
                rdb_parts.append(p)

        for r in range(reps):
            self.hb(setting, "floor", "write", r, file=ref, out=os.path.join(d, "floor.out"))
            self.hb(setting, "hfilekit", "scan", r, file=ref)
            self.hb(setting, "rocksdb", "scan", r, file=rdb_file)
            self.hb(setting, "floor", "scan", r, file=ref)
            for op in ("get", "get-bloom"):
                self.hb(setting, "hfilekit", op, r, file=ref)
                self.hb(setting, "rocksdb", op, r, file=rdb_file)
            self.hb(setting, "hfilekit", "verify", r, file=ref)
            self.hb(setting, "rocksdb", "verify", r, file=rdb_file)
            self.cli(setting, "hfilekit", "verify-cli", r, [self.verify_bin, ref])
            if self.sst_dump:
                self.cli(setting, "rocksdb", "verify-cli", r,
                         [self.sst_dump, f"--file={rdb_file}", "--command=check",
                          "--verify_checksum"])
            if have_writer:
                cout = os.path.join(d, "hfilekit-compacted.hfile")
                self.hb(setting, "hfilekit", "compact", r, inputs=",".join(parts), out=cout)
                # The same through the engine `hfile compact` runs: two threads, the output
                # verified (its ratios against the compaction's one-thread floor and peer).
                self.hb(setting, "hfilekit", "compact", r, inputs=",".join(parts),
                        out=os.path.join(d, "hfilekit-compacted-engine.hfile"), threads=2)
                self.runs[-1]["op"] = "compact-engine"
                self.hb(setting, "floor", "compact", r, inputs=",".join(parts), file=cout,
                        out=os.path.join(d, "floor.out"))
                if len(rdb_parts) == 4:
                    self.hb(setting, "rocksdb", "compact", r, inputs=",".join(rdb_parts),
                            out=os.path.join(d, "rocksdb-compact-db"))
                rout = os.path.join(d, "hfilekit-rewritten.hfile")
                self.hb(setting, "hfilekit", "rewrite", r, file=ref, out=rout, to_codec=to_codec)
                self.hb(setting, "floor", "rewrite", r, file=ref, out=os.path.join(d, "floor.out"),
                        to_codec=to_codec)
            if have_parts:
                # Both cores: four files scanned / verified with one thread, then with two (in
                # quick mode each file four times over, so that the work dwarfs thread start).
                many = parts * (4 if self.a.quick else 1)
                for j in (1, 2):
                    self.hb(setting, "hfilekit", "scan", r, inputs=",".join(many), threads=j)
                    self.runs[-1]["op"] = f"scan-4files-j{j}"
                    self.cli(setting, "hfilekit", f"verify-4files-j{j}", r,
                             [self.verify_bin, "-j", str(j)] + many)
        if have_writer and codec == ALTER_SOURCE and not self.a.no_alter:
            self.run_alter(setting, d, ref)
            self.run_table_ops(setting, d, ref)
        if not self.a.keep:
            shutil.rmtree(d, ignore_errors=True)

    def make_alter_template(self):
        """An HBase root holding an empty table `bench` (family f, VERSIONS 3, ROW bloom), made
        once by a local HBase (tests/hbase `cluster`): hfile-alter then works on a real table
        layout (descriptor, region, .regioninfo) whose store file is put in place per run."""
        if self.alter_template is not None:
            return self.alter_template or None
        self.alter_template = ""
        java = self.java_cmd()
        if not java or not os.path.exists(self.alter_bin):
            print("bench: no Java harness or hfile-alter: alter not measured", file=sys.stderr)
            return None
        root = os.path.join(self.a.work, "alter-template")
        script = os.path.join(self.a.work, "alter-template.jsonl")
        with open(script, "w") as f:
            f.write(json.dumps({"op": "create", "table": "bench", "families": [
                {"name": "f", "compression": ALTER_SOURCE, "encoding": "NONE", "bloom": "ROW",
                 "max_versions": 3}]}) + "\n")
        _, rc, wall, _ = run_proc(java + ["cluster", "--root", root, "--script", script])
        if rc != 0:
            print("bench: the local HBase could not create the alter table: alter not measured",
                  file=sys.stderr)
            return None
        print(f"bench: alter table made by a local HBase in {wall:.0f} s", file=sys.stderr)
        self.alter_template = root
        return root

    def alter_record(self, rec, setting, target, variant):
        rec.update(codec=setting[0], level=setting[1], encoding=setting[2], to_codec=target,
                   variant=variant)
        self.alter_runs.append(rec)
        return rec

    def run_alter(self, setting, d, ref):
        """`hfile alter` of family f from the setting's codec to each ALTER_TARGETS codec, on a
        table whose one store file is hfilekit's file of the setting (a fresh copy per run, the
        copying untimed); against the rewrite floor (the same blocks decompressed, recompressed
        with the target codec, checksummed, written) and HBase's major compaction of the same
        file under the new codec (what its alter + major_compact does in the RegionServer)."""
        template = self.make_alter_template()
        if not template:
            return
        codec, level, enc = setting
        base = os.path.join(d, "alter-base")
        shutil.rmtree(base, ignore_errors=True)
        shutil.copytree(template, base, symlinks=True)
        table = os.path.join(base, "hbase", "data", "default", "bench")
        # The family as the setting wrote the file (untimed; no store file yet, nothing to rewrite).
        out, rc, _, _ = run_proc([self.alter_bin, "--no-compact", table, "--family", "f", "--set",
                                  f"COMPRESSION={codec}", "--set", f"DATA_BLOCK_ENCODING={enc}"])
        if rc != 0:
            print(f"bench: hfile-alter could not set up the alter table: rc {rc}", file=sys.stderr)
            return
        regions = [r for r in os.listdir(table) if not r.startswith(".")]
        java = self.java_cmd()
        for target in ALTER_TARGETS:
            print(f"bench: alter {codec}/{enc} -> {target}", file=sys.stderr, flush=True)
            work_root = os.path.join(d, "alter-run")
            variants = [("alter", []), ("alter --trust-inputs", ["--trust-inputs"])]
            for r in range(self.a.reps):
                for variant, flags in variants:
                    shutil.rmtree(work_root, ignore_errors=True)
                    shutil.copytree(base, work_root, symlinks=True)
                    t = os.path.join(work_root, "hbase", "data", "default", "bench")
                    shutil.copyfile(ref, os.path.join(t, regions[0], "f", ALTER_STORE_FILE))
                    cmd = [self.alter_bin, "--json"] + flags + [t, "--family", "f", "--set",
                                                                 f"COMPRESSION={target}"]
                    out, rc, wall, rss, rss_exact = run_measured(cmd, d)
                    rec = {"impl": "hfilekit", "op": "alter", "rep": r, "ok": rc == 0,
                           "seconds": wall, "cells": self.cell_count, "bytes": self.cell_bytes,
                           "maxrss_kb": rss, "maxrss_exact": rss_exact, "cmd": " ".join(cmd)}
                    try:
                        res = json.loads(out)
                        rec["cells_out"] = res.get("cells_out")
                        rec["bytes_out"] = res.get("bytes_out")
                    except ValueError:
                        rec["ok"] = False
                    if rc != 0:
                        rec["error"] = out[-500:]
                    self.alter_record(rec, setting, target, variant)
                fo = self.hb(setting, "floor", "rewrite", r, file=ref,
                             out=os.path.join(d, "floor.out"), to_codec=target.lower())
                self.runs.pop()  # kept with the alter measurements, not the main report's
                self.alter_record(fo, setting, target, "floor")
            if java and not self.a.no_hbase:
                cmd = java + ["bench", "--dir", self.data, "--work", d, "--compression",
                              codec.lower(), "--level", str(level), "--encoding", enc, "--ops",
                              "alter", "--scan-file", ref, "--to-compression", target.lower(),
                              "--reps", str(self.a.reps), "--warmup", str(self.a.warmup)]
                out, rc, wall, rss = run_proc(cmd)
                for line in out.splitlines():
                    if line.startswith("{"):
                        rec = json.loads(line)
                        # MB/s over the input cell bytes, as for hfilekit and the floor.
                        rec["bytes"], rec["cells_in"] = self.cell_bytes, rec.get("cells")
                        rec["cells_out"] = rec.get("items")
                        rec["jvm_maxrss_kb"] = rss
                        self.alter_record(rec, setting, target, "hbase")
            shutil.rmtree(work_root, ignore_errors=True)

    def run_table_ops(self, setting, d, ref):
        """`hfile copy-family` (f -> g, --drop-old) and `hfile split` (at HBase's split point)
        of the alter table whose one store file is the setting's file, against the rewrite
        floor with the setting's own codec (the same blocks read, decompressed, recompressed,
        checksummed and written). HBase has no offline counterpart of either (CopyTable and
        Export/Import run through MapReduce on a live cluster; a split leaves references that
        compactions rewrite later), so the floor is the bar."""
        template = self.make_alter_template()
        if not template or not (os.path.exists(self.copy_bin) and os.path.exists(self.split_bin)):
            return
        codec, level, enc = setting
        base = os.path.join(d, "ops-base")
        shutil.rmtree(base, ignore_errors=True)
        shutil.copytree(template, base, symlinks=True)
        table = os.path.join(base, "hbase", "data", "default", "bench")
        _, rc, _, _ = run_proc([self.alter_bin, "--no-compact", table, "--family", "f", "--set",
                                f"COMPRESSION={codec}", "--set", f"DATA_BLOCK_ENCODING={enc}"])
        if rc != 0:
            print(f"bench: hfile-alter could not set up the ops table: rc {rc}", file=sys.stderr)
            return
        region = next(r for r in os.listdir(table) if not r.startswith("."))
        work_root = os.path.join(d, "ops-run")
        variants = [("copy-family", lambda t: [self.copy_bin, "--json", "--drop-old", t, "f", "g"]),
                    ("copy-family --trust-inputs",
                     lambda t: [self.copy_bin, "--json", "--trust-inputs", "--drop-old", t, "f",
                                "g"]),
                    ("split", lambda t: [self.split_bin, "--json", os.path.join(t, region)]),
                    ("split --trust-inputs",
                     lambda t: [self.split_bin, "--json", "--trust-inputs", os.path.join(t, region)])]
        print(f"bench: copy-family and split of {codec}/{enc}", file=sys.stderr, flush=True)
        for r in range(self.a.reps):
            for variant, argv in variants:
                shutil.rmtree(work_root, ignore_errors=True)
                shutil.copytree(base, work_root, symlinks=True)
                t = os.path.join(work_root, "hbase", "data", "default", "bench")
                shutil.copyfile(ref, os.path.join(t, region, "f", ALTER_STORE_FILE))
                cmd = argv(t)
                out, rc, wall, rss, rss_exact = run_measured(cmd, d)
                rec = {"impl": "hfilekit", "op": variant.split()[0], "variant": variant, "rep": r,
                       "ok": rc == 0, "seconds": wall, "cells": self.cell_count,
                       "bytes": self.cell_bytes, "maxrss_kb": rss, "maxrss_exact": rss_exact,
                       "cmd": " ".join(cmd)}
                if rc != 0:
                    rec["error"] = out[-500:]
                rec.update(codec=codec, level=level, encoding=enc)
                self.ops_runs.append(rec)
            fo = self.hb(setting, "floor", "rewrite", r, file=ref, out=os.path.join(d, "floor.out"),
                         to_codec=codec.lower())
            self.runs.pop()  # kept with the ops measurements, not the main report's
            fo.update(variant="floor")
            self.ops_runs.append(fo)
        shutil.rmtree(work_root, ignore_errors=True)

    def settings(self):
        if self.a.quick:
            s = [(c, l, "NONE") for c, l in CODECS]
            s += [(c, l, e) for e in ENCODINGS[1:] for c, l in (("NONE", 0), ("LZ4", 0))]
            return s
        return [(c, l, e) for e in ENCODINGS for c, l in CODECS]


def write_alter_report(meta, runs, out_dir):
    """alter.json (every alter run) and alter.md: per setting and target codec, the median
    MB/s (input cell bytes / wall seconds) of hfile alter, with --trust-inputs, of the rewrite
    floor and of HBase's major compaction under the new codec; hfilekit / floor and hfilekit /
    HBase as medians of pair-by-pair ratios (run i with run i); peak RSS."""
    with open(os.path.join(out_dir, "alter.json"), "w") as f:
        json.dump({"meta": meta, "runs": runs}, f, indent=1)
    groups = {}
    for r in runs:
        key = (codec_label(r["codec"], r["level"]), r["encoding"], r["to_codec"])
        groups.setdefault(key, {}).setdefault(r["variant"], []).append(r)

    def ok(rs):
        return sorted((r for r in rs if r.get("ok") and r.get("rep", 0) >= 0),
                      key=lambda r: r["rep"])

    def mbs(r):
        return r["bytes"] / r["seconds"] / 1e6

    def paired(xs, ys):
        ratios = [mbs(x) / mbs(y) for x, y in zip(xs, ys)]
        return statistics.median(ratios) if ratios else None

    lines = ["# hfile alter: codec change of a family", "",
             f"{meta['mode']} run, {meta['data']['bytes'] / 2**20:.0f} MiB of cells "
             f"({meta['data']['cells']} cells), {meta['reps']} timed runs, git {meta['git']}, "
             f"{meta['date']}.", "",
             "MB/s = input cell bytes / wall seconds of the whole process (hfile alter: its "
             "input check, the major compaction under the new codec, the output's cell-for-cell "
             "verification, the commit). Floor = the rewrite floor: the same data blocks read, "
             "CRC-checked, decompressed, recompressed with the target codec, checksummed and "
             "written (no cell decoding, nothing dropped). HBase = StoreFileScanner + "
             "StoreScanner(COMPACT_DROP_DELETES, VERSIONS 3) + StoreFileWriter with the new codec "
             "on the same file, warmed-up JVM, timed inside it. Ratios: medians of run-by-run "
             "ratios. Peak RSS: the largest of hfile alter's runs, from GNU time's %M (marked * "
             "where it had to come from wait4, which cannot report less than the bench driver's "
             "own RSS).", "",
             "| setting | to | hfile alter MB/s | --trust-inputs MB/s | floor MB/s | HBase MB/s "
             "| alter / floor | trust / floor | alter / HBase | alter peak RSS | cells in -> out |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (codec, enc, to), v in sorted(groups.items()):
        al, tr, fl, hb = (ok(v.get(k, [])) for k in ("alter", "alter --trust-inputs", "floor", "hbase"))

        def med(rs):
            return f"{statistics.median(mbs(r) for r in rs):.0f}" if rs else "-"

        def fmt(x):
            return f"{x:.2f}x" if x else "-"
        rss = (f"{max(r['maxrss_kb'] for r in al) / 1024:.1f} MiB"
               + ("" if all(r.get("maxrss_exact") for r in al) else " *")) if al else "-"
        cells = f"{al[0]['cells']} -> {al[0].get('cells_out')}" if al else "-"
        lines.append(f"| {codec}/{enc} | {to} | {med(al)} | {med(tr)} | {med(fl)} | {med(hb)} | "
                     f"{fmt(paired(al, fl))} | {fmt(paired(tr, fl))} | {fmt(paired(al, hb))} | "
                     f"{rss} | {cells} |")
    lines.append("")
    with open(os.path.join(out_dir, "alter.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def write_ops_report(meta, runs, out_dir):
    """ops.json and ops.md: hfile copy-family and hfile split against the rewrite floor (same
    codec), median MB/s over the input cell bytes, ratios as medians of run-by-run ratios."""
    with open(os.path.join(out_dir, "ops.json"), "w") as f:
        json.dump({"meta": meta, "runs": runs}, f, indent=1)
    groups = {}
    for r in runs:
        key = (codec_label(r["codec"], r["level"]), r["encoding"])
        groups.setdefault(key, {}).setdefault(r["variant"], []).append(r)

    def ok(rs):
        return sorted((r for r in rs if r.get("ok")), key=lambda r: r["rep"])

    def mbs(r):
        return r["bytes"] / r["seconds"] / 1e6

    lines = ["# hfile copy-family and hfile split against the rewrite floor", "",
             f"{meta['mode']} run, {meta['data']['bytes'] / 2**20:.0f} MiB of cells "
             f"({meta['data']['cells']} cells) in one store file, {meta['reps']} timed runs, git "
             f"{meta['git']}, {meta['date']}.", "",
             "MB/s = input cell bytes / wall seconds of the whole process: copy-family --drop-old "
             "(input check, the copy under the new name, the output's verification with its "
             "cell digest, two commits, the drop) and split at HBase's split point (input check, "
             "two halves written and verified, the commit, the parent archived). Floor = the "
             "same data blocks read, CRC-checked, decompressed, recompressed with the same codec, "
             "checksummed and written. Ratios: medians of run-by-run ratios; the issue's target "
             "is 0.8x of the floor.", "",
             "| setting | tool | MB/s | floor MB/s | / floor | peak RSS |", "|---|---|---|---|---|---|"]
    for (codec, enc), v in sorted(groups.items()):
        fl = ok(v.get("floor", []))
        for variant in ("copy-family", "copy-family --trust-inputs", "split", "split --trust-inputs"):
            rs = ok(v.get(variant, []))
            if not rs:
                continue
            ratios = [mbs(x) / mbs(y) for x, y in zip(rs, fl)]
            ratio = f"{statistics.median(ratios):.2f}x" if ratios else "-"
            rss = f"{max(r['maxrss_kb'] for r in rs) / 1024:.1f} MiB" + \
                ("" if all(r.get("maxrss_exact") for r in rs) else " *")
            flm = f"{statistics.median(mbs(r) for r in fl):.0f}" if fl else "-"
            lines.append(f"| {codec}/{enc} | {variant} | {statistics.median(mbs(r) for r in rs):.0f} "
                         f"| {flm} | {ratio} | {rss} |")
    lines.append("")
    with open(os.path.join(out_dir, "ops.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench-out"))
    ap.add_argument("--work", default=None, help="scratch dir (default /dev/shm/hfkbench-PID)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--harness-build", default=os.path.join(ROOT, "tests", "hbase", "target"))
    ap.add_argument("--bytes", type=int, default=None)
    ap.add_argument("--gets", type=int, default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--no-hbase", action="store_true")
    ap.add_argument("--no-alter", action="store_true",
                    help="leave out the `hfile alter` measurement (SNAPPY settings)")
    ap.add_argument("--table-ops-only", action="store_true",
                    help="only the table tools of the SNAPPY settings: alter (unless --no-alter), "
                         "copy-family, split (alter.md, ops.md)")
    ap.add_argument("--bulkload-only", action="store_true",
                    help="only `hfile bulkload` against ImportTsv and its write floor "
                         "(bench_bulkload.py: bulkload.md, bulkload.json)")
    ap.add_argument("--bulkload-bytes", type=int, default=None,
                    help="TSV size of --bulkload-only (default 1 GiB, --quick 64 MiB)")
    ap.add_argument("--bulkload-importtsv-bytes", type=int, default=None,
                    help="run ImportTsv on only the first this many bytes of that TSV")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--keep-page-cache", action="store_true",
                    help="do not drop the page cache before each setting (done when root)")
    ap.add_argument("--only", default=None, help="CODEC[-LEVEL]/ENCODING,... to run a subset")
    ap.add_argument("--max-value", type=int, default=0,
                    help="cap value sizes (bytes) for a small-cell mix; 0: 10 B - 100 KB")
    a = ap.parse_args()
    a.bytes = a.bytes or ((16 << 20) if a.quick else (1 << 30) + (64 << 20))
    a.gets = a.gets or (2000 if a.quick else 20000)
    a.reps = a.reps or 3
    a.work = a.work or f"/dev/shm/hfkbench-{os.getpid()}"
    os.makedirs(a.work, exist_ok=True)
    if a.bulkload_only:
        import bench_bulkload
        bench_bulkload.run(a, a.build, a.harness_build)
        if not a.keep:
            shutil.rmtree(a.work, ignore_errors=True)
        return
    b = Bench(a)
    t0 = time.time()
    b.generate()
    settings = b.settings()
    if a.only:
        want = set(a.only.split(","))
        settings = [s for s in settings if f"{codec_label(s[0], s[1])}/{s[2]}" in want]
    for s in settings:
        b.run_setting(s)
    meta = {
        "mode": "quick" if a.quick else "full",
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "host": platform.node(), "cpus": os.cpu_count(), "machine": platform.machine(),
        "kernel": platform.release(), "work_dir": a.work, "reps": a.reps, "warmup": a.warmup,
        "page_cache_dropped": b.dropped_cache,
        "data": b.summary, "gets": a.gets, "elapsed_s": round(time.time() - t0, 1),
        "git": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip(),
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "raw.json"), "w") as f:
        json.dump({"meta": meta, "runs": b.runs}, f, indent=1)
    if b.runs:
        subprocess.run([sys.executable, os.path.join(HERE, "bench_report.py"),
                        os.path.join(a.out, "raw.json"), a.out], check=True)
    if b.alter_runs:
        write_alter_report(meta, b.alter_runs, a.out)
    if b.ops_runs:
        write_ops_report(meta, b.ops_runs, a.out)
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    main()
