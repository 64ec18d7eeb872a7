#!/usr/bin/env python3
"""Spark scaling of the distributed jobs (issue 17), run with the pyspark venv's Python:

    ~/.cache/hfilekit/spark-venv/bin/python scripts/bench_spark.py --bin build/bin --out DIR

1. Scaling: a table of --regions regions x 1 family (two store files each, --mb MB of cells in
   all) altered to another codec (every store rewritten: one unit each) through
   spark/hfile_spark.py in local[1] and in local[2], each on a fresh copy, --repeat times; the
   figure is the run stage's wall time (plan and commit are the driver's, the same either way).
2. Driver cost at scale: a table of --sim-regions tiny regions compacted through the driver in
   local[2]: the plan, the Spark stage and the commit, each per unit, to extrapolate what a
   driver spends on a job of many thousand units.
Writes DIR/results.json and prints a summary.
"""
import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import time

NOW = "--now=1800000000000"


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit("%s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout,
                                                  p.stderr))
    return p


def make_table(hfile, root, regions, mb, work):
    splits = ", ".join("'%08d'" % (i * 100000000 // regions) for i in range(1, regions))
    run([hfile, "create", root, "create 't', {NAME => 'd', COMPRESSION => 'SNAPPY'}, "
         "{SPLITS => [%s]}" % splits])
    rnd = random.Random(1)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    for load in range(2):
        tsv = os.path.join(work, "load%d.tsv" % load)
        with open(tsv, "w") as f:
            size = 0
            while size < mb * (1 << 20) // 2:
                v = " ".join(rnd.choice(words) for _ in range(rnd.randrange(5, 40)))
                line = "%08d\t%s\t%d\n" % (rnd.randrange(100000000), v, rnd.randrange(1 << 30))
                f.write(line)
                size += len(line)
        run([hfile, "bulkload", "--into", "--root", root, "--table", "t", "--columns",
             "HBASE_ROW_KEY,d:v,d:n", "--no-progress", NOW, tsv])
        os.unlink(tsv)


def session(master):
    from pyspark.sql import SparkSession
    s = (SparkSession.builder.master(master).appName("hfilekit-bench")
         .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    # A first action warms the Python workers, so that neither run pays it.
    s.sparkContext.parallelize(range(4), 4).map(lambda x: x).collect()
    return s


def drive(driver, spark, hfile, job_id, command):
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = driver.main(["--hfile", hfile, "--task-hfile", hfile + "-task", "--job-id",
                            job_id, "--json", "--"] + command, spark=spark)
    if code != 0:
        raise SystemExit("the driver failed on %s (exit %d)" % (job_id, code))
    return json.loads(buf.getvalue().strip().splitlines()[-1])


def simulate(driver, hfile, work, regions):
    """A compaction of `regions` tiny regions (two files each) through the driver in local[2]:
    what the driver and Spark spend per unit when the units' own work is next to nothing."""
    sim = os.path.join(work, "sim%d" % regions)
    splits = ", ".join("'%06d'" % (i * 1000000 // regions) for i in range(1, regions))
    run([hfile, "create", sim, "create 't', 'd', {SPLITS => [%s]}" % splits])
    tsv = os.path.join(work, "sim.tsv")
    with open(tsv, "w") as f:
        for i in range(regions * 20):
            f.write("%06d\tv%d\n" % ((i * 7919) % 1000000, i))
    for _ in range(2):
        run([hfile, "bulkload", "--into", "--root", sim, "--table", "t", "--columns",
             "HBASE_ROW_KEY,d:v", "--no-progress", NOW, tsv])
    spark = session("local[2]")
    rec = drive(driver, spark, hfile, "sim", ["compact", os.path.join(sim, "data", "default", "t"),
                                             "--major", NOW])
    spark.stop()
    n = rec["units"]
    rec["per_unit_ms"] = {k: 1000.0 * rec[k + "_seconds"] / n
                          for k in ("plan", "run", "commit", "task")}
    print("driver at %d units: plan %.1f s (%.2f ms/unit), Spark stage %.1f s (%.2f ms/unit "
          "wall, %.2f ms/unit in tasks), commit %.1f s (%.2f ms/unit)" % (
              n, rec["plan_seconds"], rec["per_unit_ms"]["plan"], rec["run_seconds"],
              rec["per_unit_ms"]["run"], rec["per_unit_ms"]["task"], rec["commit_seconds"],
              rec["per_unit_ms"]["commit"]), flush=True)
    shutil.rmtree(sim, ignore_errors=True)
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default=None)
    ap.add_argument("--regions", type=int, default=16)
    ap.add_argument("--mb", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sim-regions", type=int, default=1024)
    ap.add_argument("--codec", default="GZ", help="the codec the alter rewrites every store to")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "hfile_spark", os.path.join(here, "..", "spark", "hfile_spark.py"))
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    hfile = os.path.abspath(os.path.join(a.bin, "hfile"))
    work = os.path.abspath(a.work or os.path.join(a.out, "work"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.makedirs(a.out, exist_ok=True)
    git = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip()
    results = {"git": git, "nproc": os.cpu_count(), "regions": a.regions, "mb": a.mb,
               "codec": a.codec, "runs": []}

    base = os.path.join(work, "base")
    t = time.time()
    make_table(hfile, base, a.regions, a.mb, work)
    print("table: %d regions, %d MB of cells, made in %.1f s" % (a.regions, a.mb,
                                                                 time.time() - t), flush=True)
    for master in ("local[1]", "local[2]"):
        spark = session(master)
        for rep in range(a.repeat):
            copy = os.path.join(work, "copy")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(base, copy)
            rec = drive(driver, spark, hfile, "s%d" % rep,
                        ["alter", os.path.join(copy, "data", "default", "t"), "--family=d",
                         "--set=COMPRESSION=%s" % a.codec, NOW])
            rec["master"] = master
            results["runs"].append(rec)
            print("%s run %d: %d units, stage %.2f s (tasks %.2f s), plan %.2f s, commit %.2f s"
                  % (master, rep, rec["ran"], rec["run_seconds"], rec["task_seconds"],
                     rec["plan_seconds"], rec["commit_seconds"]), flush=True)
        spark.stop()
    best = {m: min(r["run_seconds"] for r in results["runs"] if r["master"] == m)
            for m in ("local[1]", "local[2]")}
    results["speedup"] = best["local[1]"] / best["local[2]"]
    print("speedup local[2] over local[1]: %.2fx (best of %d: %.2f s vs %.2f s)" % (
        results["speedup"], a.repeat, best["local[1]"], best["local[2]"]), flush=True)

    if a.sim_regions:
        # The estimate: per-unit costs measured on a small job (64 units), times the units of
        # the large one; then the large job itself, to check the estimate against.
        results["sim"] = {}
        for n in (64, a.sim_regions):
            rec = simulate(driver, hfile, work, n)
            results["sim"][str(n)] = rec
        small, large = results["sim"]["64"], results["sim"][str(a.sim_regions)]
        predicted = {k: small["per_unit_ms"][k] * large["units"] / 1000.0
                     for k in ("plan", "run", "commit")}
        results["sim_prediction"] = predicted
        for k in ("plan", "run", "commit"):
            print("%d units, %s: predicted from 64 units %.1f s, measured %.1f s" % (
                large["units"], k, predicted[k], large[k + "_seconds"]), flush=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
