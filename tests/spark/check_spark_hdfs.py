#!/usr/bin/env python3
"""The Spark driver on a table stored on HDFS: PySpark local[2,4] and a MiniDFSCluster 3.5.0
(WebHDFS), both on loopback, started and stopped here.

A 5-region, 2-family table made locally by the tools is uploaded to HDFS (Python's http.client,
not our client) and kept as a local reference. Then, one after another on both: compact
--major, alter (a family's BLOCKSIZE and COMPRESSION), copy-family, split of every region, and
a bulk load --into. On HDFS each runs through spark/hfile_spark.py (tasks mirror their unit to a
local work dir, upload into their attempt dir; the driver commits on HDFS); the reference runs
the single-machine tool. After each job the HDFS root is downloaded and must equal the
reference: cells, descriptor, dirs, store-file counts; `hfile verify` clean. At the end HBase's
own reader (the harness's `read`) opens every store file of the download: each must pass
HBase's check and hold the cells `hfile dump` finds. Exit 0 when every check passed.
"""
import argparse
import contextlib
import getpass
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import check_spark_jobs as sj  # noqa: E402  (the table, the comparisons, the driver loader)

NOW = sj.NOW


def main():
    ap = argparse.ArgumentParser()
    for a in ("--bin", "--driver", "--work", "--launcher", "--hdfs-tests"):
        ap.add_argument(a, required=True)
    ap.add_argument("--harness", help="tests/hbase/harness.sh: HBase's reader checks the result")
    args = ap.parse_args()
    sys.path.insert(0, args.hdfs_tests)
    import check_webhdfs as cw  # the MiniDFSCluster launcher
    import check_units_hdfs as cu  # WebHDFS over http.client: upload, download

    t_start = time.time()
    kit = sj.Kit(args.bin)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = os.path.join(work, "base")
    tsv = os.path.join(work, "in.tsv")
    sj.make_table(kit, base, tsv)
    tsv2 = os.path.join(work, "in2.tsv")
    with open(tsv2, "w") as f:
        for i in range(3000):
            f.write("%04d\tload2-%d\tc%d\n" % ((i * 7919) % 10000, i, i))
    local_root = os.path.join(work, "local")
    shutil.copytree(base, local_root, symlinks=True)
    local = os.path.join(local_root, "data", "default", "t")
    driver = sj.load_driver(args.driver)

    proc, info = cw.start_cluster(args, work)
    spark = None
    try:
        nn, rpc = info["namenode_http"], info["namenode_rpc"]
        hdfs = cu.Hdfs(nn, getpass.getuser())
        # hdfs://RPC paths, the NameNode's HTTP address given: for the driver, its tools and the
        # tasks (local mode: the executors inherit this process's environment).
        os.environ["HFILE_WEBHDFS"] = nn
        os.environ.pop("HADOOP_CONF_DIR", None)
        table_uri = "hdfs://%s/hbase/data/default/t" % rpc
        t = time.time()
        hdfs.upload_tree(base, "/hbase")
        print("uploaded the root in %.1f s" % (time.time() - t), flush=True)

        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2,4]").appName("hfilekit-hdfs-test")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.driver.host", "127.0.0.1")
                 .config("spark.driver.bindAddress", "127.0.0.1")
                 # The units' hosts name the DataNode (127.0.0.1); the executor is "localhost"
                 # here, so the locality wait would only add seconds.
                 .config("spark.locality.wait", "0")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        task_work = os.path.join(work, "task-work")
        os.makedirs(task_work)

        def drive(job_id, command):
            t = time.time()
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                code = driver.main(["--hfile", kit.hfile, "--task-hfile", kit.hfile + "-task",
                                    "--job-id", job_id, "--work-dir", task_work, "--json",
                                    "--"] + command, spark=spark)
            rec = json.loads(buf.getvalue().strip().splitlines()[-1])
            # The driver's serial part on HDFS, per unit: what doc/distributed.md's estimate of
            # a cluster's plan and commit cost rests on.
            n = max(1, rec["units"])
            print("  driver %s on HDFS: exit %d in %.1f s; %d units, plan %.1f ms/unit, "
                  "commit %.1f ms/unit" % (job_id, code, time.time() - t, rec["units"],
                                           1000 * rec["plan_seconds"] / n,
                                           1000 * rec.get("commit_seconds", 0) / n),
                  flush=True)
            return sj.check(code == 0, "%s: the driver failed on HDFS" % job_id)

        def compare(name):
            dl = os.path.join(work, "dl-" + name)
            hdfs.download_tree("/hbase", dl, skip=(".hfile-jobs",))
            remote = os.path.join(dl, "data", "default", "t")
            sj.same_as_local(kit, name, remote, local)
            sj.check(not hdfs.exists("/hbase/data/default/t/.hfile-journal"),
                     "%s: a journal is left on HDFS" % name)
            sj.check(hdfs.exists("/hbase/data/default/t/.hfile-jobs/%s.done" % name),
                     "%s: no .done record on HDFS" % name)
            return dl

        regions = sorted(r for r in os.listdir(local) if not r.startswith("."))
        steps = [
            ("compact", ["compact", table_uri, "--major", NOW],
             lambda: kit("compact", local, "--major", NOW)),
            ("alter", ["alter", table_uri, "--family=m", "--set=BLOCKSIZE=8192",
                       "--set=COMPRESSION=GZ", NOW],
             lambda: kit("alter", local, "--family=m", "--set=BLOCKSIZE=8192",
                         "--set=COMPRESSION=GZ", NOW)),
            ("copy-family", ["copy-family", table_uri, "b", "body", "--drop-old", NOW],
             lambda: kit("copy-family", local, "b", "body", "--drop-old", NOW)),
            ("split", ["split", table_uri, NOW],
             lambda: [kit("split", os.path.join(local, r), "--skip-unsplittable", NOW)
                      for r in regions]),
            ("bulkload", ["bulkload", "--into", "--table", table_uri, "--columns",
                          "HBASE_ROW_KEY,m:a,body:c", "--no-progress", NOW, tsv2],
             lambda: kit("bulkload", "--into", "--table", local, "--columns",
                         "HBASE_ROW_KEY,m:a,body:c", "--no-progress", NOW, tsv2)),
        ]
        dl = None
        for name, command, local_run in steps:
            local_run()
            if drive(name, command):
                dl = compare(name)

        if dl and args.harness:
            # HBase's own reader on every store file of the last download.
            files = sorted(p for fam in ("m", "body") for p in glob.glob(
                os.path.join(dl, "data", "default", "t", "*", fam, "*")))
            sj.check(len(files) >= 20, "HBase's read: only %d store files found" % len(files))
            out_dir = os.path.join(work, "hbase-read")
            os.makedirs(out_dir)
            t = time.time()
            p = subprocess.run(["bash", args.harness, "read", "--out-dir", out_dir] + files,
                               capture_output=True, text=True, timeout=600)
            sj.check(p.returncode == 0, "HBase's read exited %d: %s" % (p.returncode,
                                                                         p.stderr[-2000:]))
            read_ok = 0
            for f in files:
                outs = glob.glob(os.path.join(out_dir, "*" + os.path.basename(f) + "*"))
                if not sj.check(len(outs) == 1, "HBase's read: no single output for %s: %s"
                                % (f, outs)):
                    continue
                lines = open(outs[0]).read().splitlines()
                hb = sum(1 for l in lines if '"kind":"cell"' in l)
                ours = sum(1 for l in kit("dump", "-p", "--json", f).stdout.splitlines()
                           if '"kind":"cell"' in l)
                sj.check(lines and '"kind":"check","ok":true' in lines[-1],
                         "HBase's reader refused %s: %s" % (f, lines[-1:]))
                if sj.check(hb == ours and hb > 0, "HBase's reader found %d cells in %s, hfile "
                            "dump %d" % (hb, f, ours)):
                    read_ok += 1
            print("HBase's reader: %d of %d store files pass its check with the same cells "
                  "(%.1f s)" % (read_ok, len(files), time.time() - t), flush=True)
        elif not args.harness:
            print("WARNING: no --harness: HBase's reader was not run on the result",
                  file=sys.stderr)
    finally:
        if spark is not None:
            spark.stop()
        cw.stop_cluster(proc)

    print("spark on hdfs: %d failure(s) in %.1f s" % (len(sj.failures), time.time() - t_start))
    if not sj.failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if sj.failures else 0


if __name__ == "__main__":
    sys.exit(main())
