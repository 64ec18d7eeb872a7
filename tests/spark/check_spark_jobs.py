#!/usr/bin/env python3
"""The writing tools as Spark tasks (spark/hfile_spark.py) in PySpark local[2,4], on loopback.

Each of compact, alter, copy-family, split and bulkload --into is run through the driver on a
copy of a 5-region, 2-family table made by the tools, and by the single-machine tool on another
copy; the two tables must hold the same cells, descriptor, regions and store-file counts, and
`hfile verify` must find the driver's clean. Then the faults: a task killed (SIGKILL) after its
tool ran and retried by Spark; a unit run twice (its first attempt completes, then fails the
task, so Spark runs it again); the driver killed before its commit (spark-submit, with the binary
shipped by --archives as on a cluster) and rerun; the driver killed right after its commit and
rerun twice. None of them may lose or duplicate a file. Runs with the Python that has pyspark
(scripts/install-deps.sh --spark). Exit 0 when every check passed.
"""
import argparse
import glob
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import time

failures = []
NOW = "--now=1800000000000"


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr, flush=True)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def run(cmd, env=None, ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if ok and p.returncode != 0:
        raise SystemExit("FAIL: %s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout,
                                                      p.stderr))
    return p


class Kit:
    def __init__(self, bin_dir):
        self.bin = bin_dir
        self.hfile = os.path.join(bin_dir, "hfile")

    def __call__(self, *args, **kw):
        return run([self.hfile] + list(args), **kw)

    def cells(self, table):
        """The table's cells in scan order as `hfile dump --table -p --json` prints them, less
        the store files' paths (their names differ between runs)."""
        out = self("dump", "--table", table, "-p", "--json").stdout
        recs = []
        for line in out.splitlines():
            r = json.loads(line)
            r.pop("path", None)
            recs.append(json.dumps(r, sort_keys=True))
        return recs


def table_shape(table):
    """Regions, family dirs and the number of store files in each (no file names)."""
    shape = {}
    for region in sorted(os.listdir(table)):
        if region.startswith("."):
            continue
        for fam in sorted(os.listdir(os.path.join(table, region))):
            p = os.path.join(table, region, fam)
            if os.path.isdir(p) and not fam.startswith("."):
                shape[region + "/" + fam] = len(os.listdir(p))
    return shape


def descriptor(table):
    newest = max(glob.glob(os.path.join(table, ".tabledesc", ".tableinfo.*")))
    with open(newest, "rb") as f:
        return os.path.basename(newest), f.read()


def make_table(kit, root, tsv):
    kit("create", root, "create 't', {NAME => 'm', VERSIONS => 2}, "
        "{NAME => 'b', COMPRESSION => 'ZSTD'}, {SPLITS => ['2', '4', '6', '8']}")
    rnd = random.Random(7)
    with open(tsv, "w") as f:
        for i in range(6000):
            f.write("%04d\tv%d\tbody-%d%s\n" % (rnd.randrange(10000), i, i,
                                               "x" * rnd.randrange(200)))
    for _ in range(2):  # two files per store: a compaction merges and drops versions
        kit("bulkload", "--into", "--root", root, "--table", "t", "--columns",
            "HBASE_ROW_KEY,m:a,b:c", "--no-progress", NOW, tsv)


def load_driver(path):
    spec = importlib.util.spec_from_file_location("hfile_spark", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def same_as_local(kit, name, spark_table, local_table):
    a, b = kit.cells(spark_table), kit.cells(local_table)
    check(len(a) > 1000, "%s: the dump read only %d records" % (name, len(a)))
    check(a == b, "%s: cells differ from the single-machine run (%d vs %d records)" % (
        name, len(a), len(b)))
    check(descriptor(spark_table) == descriptor(local_table),
          "%s: the descriptor differs from the single-machine run" % name)
    sa, sb = table_shape(spark_table), table_shape(local_table)
    check(sa == sb, "%s: regions/stores/file counts differ: %s vs %s" % (name, sa, sb))
    v = kit("verify", spark_table, "--json", ok=False)
    check(v.returncode == 0, "%s: hfile verify exited %d: %s" % (name, v.returncode,
                                                                v.stdout[-2000:]))
    check(not os.path.exists(os.path.join(spark_table, ".hfile-journal")),
          "%s: a journal is left" % name)


def write_wrapper(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--bin", "--driver", "--work", "--source"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    t_start = time.time()
    kit = Kit(args.bin)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = os.path.join(work, "base")
    tsv = os.path.join(work, "in.tsv")
    make_table(kit, base, tsv)
    tsv2 = os.path.join(work, "in2.tsv")
    with open(tsv2, "w") as f:
        for i in range(3000):
            f.write("%04d\tload2-%d\tc%d\n" % ((i * 7919) % 10000, i, i))
    driver = load_driver(args.driver)
    task_bin = os.path.join(args.bin, "hfile-task")

    def copies(name):
        d = os.path.join(work, name)
        for side in ("spark", "local"):
            shutil.copytree(base, os.path.join(d, side), symlinks=True)
        return (os.path.join(d, "spark", "data", "default", "t"),
                os.path.join(d, "local", "data", "default", "t"))

    from pyspark.sql import SparkSession
    t0 = time.time()
    spark = (SparkSession.builder.master("local[2,4]").appName("hfilekit-test")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.driver.memory", "1g")
             .config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print("spark session up in %.1f s" % (time.time() - t0), flush=True)

    def drive(job_id, command, task_hfile=task_bin, extra=()):
        argv = ["--hfile", kit.hfile, "--task-hfile", task_hfile, "--job-id", job_id] + \
            list(extra) + ["--"] + command
        t = time.time()
        code = driver.main(argv, spark=spark)
        print("  driver %s: exit %d in %.1f s" % (job_id, code, time.time() - t), flush=True)
        return code

    # 1. Every tool: the driver's table equals the single-machine tool's.
    jobs = [
        ("compact", ["--major", NOW]),
        ("alter", ["--family=m", "--set=VERSIONS=1", "--set=DATA_BLOCK_ENCODING=FAST_DIFF", NOW]),
        ("copy-family", ["b", "body", "--drop-old", NOW]),
        ("split", [NOW]),
    ]
    for tool, targs in jobs:
        spark_t, local_t = copies("job-" + tool)
        if tool == "split":  # the single-machine tool splits one region at a time
            for r in sorted(x for x in os.listdir(local_t) if not x.startswith(".")):
                kit("split", os.path.join(local_t, r), "--skip-unsplittable", *targs)
        else:
            kit(tool, local_t, *targs)
        if check(drive(tool, [tool, spark_t] + targs) == 0, "%s: the driver failed" % tool):
            same_as_local(kit, tool, spark_t, local_t)
            check(os.path.exists(os.path.join(spark_t, ".hfile-jobs", tool + ".done")),
                  "%s: no .done record" % tool)
    spark_t, local_t = copies("job-bulkload")
    load = ["--columns", "HBASE_ROW_KEY,m:a,b:c", "--no-progress", NOW]
    kit("bulkload", "--into", "--table", local_t, *load, tsv2, tsv)
    if check(drive("bulkload", ["bulkload", "--into", "--table", spark_t] + load + [tsv2, tsv])
             == 0, "bulkload: the driver failed"):
        same_as_local(kit, "bulkload", spark_t, local_t)

    # 2. A task killed after its tool ran (a lost executor): Spark runs it again.
    spark_t, local_t = copies("fault-kill")
    kit("compact", local_t, "--major", NOW)
    marker = os.path.join(work, "killed-once")
    wrapper = os.path.join(work, "task-kill.sh")
    write_wrapper(wrapper, 'if mkdir "%s" 2>/dev/null; then\n'
                  '  HFILE_TASK_CRASH_AT=tool-done exec "%s" "$@"\nfi\nexec "%s" "$@"\n'
                  % (marker, task_bin, task_bin))
    check(drive("kill", ["compact", spark_t, "--major", NOW], wrapper, ["--no-commit"]) == 0,
          "fault-kill: the driver failed")
    attempts = glob.glob(os.path.join(spark_t, ".hfile-jobs", "kill", "attempts", "*", "*"))
    incomplete = [a for a in attempts if not os.path.exists(os.path.join(a, "result.json"))]
    check(len(incomplete) == 1, "fault-kill: expected one killed (incomplete) attempt, found %d"
          % len(incomplete))
    run([task_bin, "--commit", os.path.join(spark_t, ".hfile-jobs", "kill")])
    same_as_local(kit, "fault-kill", spark_t, local_t)

    # 3. A unit run twice: its first attempt completes, then the task fails; Spark runs it again.
    spark_t, local_t = copies("fault-twice")
    kit("alter", local_t, "--family=b", "--set=COMPRESSION=SNAPPY", NOW)
    marker = os.path.join(work, "twice-once")
    wrapper = os.path.join(work, "task-twice.sh")
    write_wrapper(wrapper, '"%s" "$@" || exit $?\nif mkdir "%s" 2>/dev/null; then\n'
                  '  echo "failing a complete attempt on purpose" >&2; exit 3\nfi\n'
                  % (task_bin, marker))
    check(drive("twice", ["alter", spark_t, "--family=b", "--set=COMPRESSION=SNAPPY", NOW],
                wrapper, ["--no-commit"]) == 0, "fault-twice: the driver failed")
    per_unit = {}
    for a in glob.glob(os.path.join(spark_t, ".hfile-jobs", "twice", "attempts", "*", "*",
                                    "result.json")):
        unit = a.split(os.sep)[-3]
        per_unit[unit] = per_unit.get(unit, 0) + 1
    check(sorted(per_unit.values())[-1:] == [2],
          "fault-twice: expected one unit with two complete attempts: %s" % per_unit)
    run([task_bin, "--commit", os.path.join(spark_t, ".hfile-jobs", "twice")])
    same_as_local(kit, "fault-twice", spark_t, local_t)
    # 4. The commit killed after the job's done record, while it archives the replaced files
    #    (a lost driver or NameNode there): the driver's rerun finds the job recorded done and
    #    must still finish the commit, leaving no replaced file beside its replacement.
    spark_t, local_t = copies("fault-disposed")
    kit("compact", local_t, "--major", NOW)
    os.environ["HFILE_TASK_COMMIT_CRASH_AT"] = "disposed"
    try:
        code = drive("disposed", ["compact", spark_t, "--major", NOW])
    finally:
        del os.environ["HFILE_TASK_COMMIT_CRASH_AT"]
    check(code == 128 + 9, "fault-disposed: the driver's commit was not killed (exit %d)" % code)
    check(os.path.exists(os.path.join(spark_t, ".hfile-jobs", "disposed.done")) and
          os.path.exists(os.path.join(spark_t, ".hfile-journal")),
          "fault-disposed: the commit was not killed between its done record and its end")
    check(drive("disposed", ["compact", spark_t, "--major", NOW]) == 0,
          "fault-disposed: the rerun failed")
    same_as_local(kit, "fault-disposed", spark_t, local_t)
    spark.stop()

    # 5. spark-submit with the binary shipped as an archive; the driver killed before its commit,
    #    then after it; each rerun with the same job id finishes, and the last finds it done.
    spark_t, local_t = copies("fault-driver")
    alter = ["alter", spark_t, "--family=m", "--set=BLOCKSIZE=8192", NOW]
    kit("alter", local_t, "--family=m", "--set=BLOCKSIZE=8192", NOW)
    before = kit.cells(spark_t)
    archive = os.path.join(work, "hfilekit.tgz")
    run(["bash", os.path.join(args.source, "scripts", "spark-archive.sh"),
         os.path.dirname(args.bin), archive])
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    # spark-submit finds pyspark through the python3 on PATH: the venv's.
    env = dict(os.environ, HFILE_SPARK_CRASH_AT="before-commit", PYSPARK_PYTHON=sys.executable,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("LD_LIBRARY_PATH", None)
    t = time.time()
    p = run([submit, "--master", "local[2,4]", "--conf", "spark.ui.enabled=false",
             "--conf", "spark.ui.showConsoleProgress=false",
             "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
             "--archives", archive + "#hfilekit", args.driver, "--hfile", kit.hfile,
             "--job-id", "drv", "--json", "--"] + alter, env=env, ok=False)
    print("  spark-submit (killed before commit): exit %d in %.1f s" % (p.returncode,
                                                                        time.time() - t))
    check(p.returncode != 0, "fault-driver: spark-submit exited 0 though its driver was killed")
    # spark-submit passes the Python driver's stdout and stderr on as its own stdout.
    check("killing the driver" in p.stdout + p.stderr,
          "fault-driver: the driver did not reach its commit: " + (p.stdout + p.stderr)[-3000:])
    check(kit.cells(spark_t) == before, "fault-driver: the table changed before the commit")
    job_dir = os.path.join(spark_t, ".hfile-jobs", "drv")
    check(kit("task", "--pending", job_dir).stdout == "",
          "fault-driver: units still pending after the tasks ran")
    plain = [sys.executable, args.driver, "--hfile", kit.hfile, "--task-hfile", task_bin,
             "--job-id", "drv", "--json", "--"] + alter
    env = dict(os.environ, HFILE_SPARK_CRASH_AT="after-commit")
    p = run(plain, env=env, ok=False)
    check(p.returncode == -9, "fault-driver: the rerun was not killed after its commit (exit %d): "
          "%s" % (p.returncode, p.stderr[-2000:]))
    same_as_local(kit, "fault-driver", spark_t, local_t)
    p = run(plain, ok=False)
    rec = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else {}
    check(p.returncode == 0 and rec.get("already_committed") is True,
          "fault-driver: the last rerun did not find the job committed: %s %s" % (p.stdout,
                                                                                  p.stderr))
    same_as_local(kit, "fault-driver (after the last rerun)", spark_t, local_t)

    print("spark jobs: %d failure(s) in %.1f s" % (len(failures), time.time() - t_start))
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
