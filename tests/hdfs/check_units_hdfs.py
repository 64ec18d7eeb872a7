#!/usr/bin/env python3
"""Distributed jobs on a table stored on HDFS (MiniDFSCluster 3.5.0, loopback) equal the
single-machine tools run on a local copy.

A 4-region, 2-family table is made locally by the tools (hfile create, two bulk loads), copied
to a second local root (the reference) and uploaded whole to HDFS with Python's http.client (not
our client). Then, in turn, on both: compact --major, alter (BLOCKSIZE and COMPRESSION of a
family), copy-family a c, split of the largest region, a second bulkload --into, alter
--drop-family c. Each job runs on hdfs:// (the split: webhdfs://) as a driver runs it (plan
with --emit-units, `hfile task` per unit with a local --work-dir, `hfile task --commit`); the
reference runs the tool itself. After each job the HDFS root is downloaded and compared with
the reference: the cells (`hfile dump --table -p --json` without file paths), the descriptor,
the tree's dirs, the archive's files (HBase's layout); `hfile verify --table` of the download
is clean. Faults on the way: a unit run twice (two attempts), a task SIGKILLed once mirrored
(HFILE_TASK_CRASH_AT) then run again, a commit killed after its intent (the table untouched;
rolled back by the next run) and after its commit record (HFILE_TASK_COMMIT_CRASH_AT), then
rerun (rolls forward on HDFS), and, for the bulk load and the dropped family, a NameNode that
fails one request per run of their first unit and of their commit (nn_fault_proxy.py: refused,
or done and its answer lost), each run at a step not failed before, until a run completes.
Exit 0 when every check passed.
"""
import argparse
import getpass
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_webhdfs as cw  # noqa: E402  (the launcher and the independent upload)
from nn_fault_proxy import NameNodeFaultProxy  # noqa: E402

NOW = "1800000000000"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


class Hdfs:
    """WebHDFS with http.client: listing, download, mkdirs, upload (independent of hfilekit)."""

    def __init__(self, nn, user):
        self.host, port = nn.split(":")
        self.port = int(port)
        self.nn, self.user = nn, user

    def call(self, method, path, op, **params):
        q = urllib.parse.urlencode(dict(op=op, **{"user.name": self.user}, **params))
        c = http.client.HTTPConnection(self.host, self.port, timeout=60)
        c.request(method, "/webhdfs/v1" + urllib.parse.quote(path) + "?" + q)
        r = c.getresponse()
        body = r.read()
        return r, body

    def mkdirs(self, path):
        r, body = self.call("PUT", path, "MKDIRS")
        if r.status != 200:
            raise SystemExit("MKDIRS %s: HTTP %d %s" % (path, r.status, body[:200]))

    def list(self, path):
        r, body = self.call("GET", path, "LISTSTATUS")
        if r.status == 404:
            return None
        if r.status != 200:
            raise SystemExit("LISTSTATUS %s: HTTP %d" % (path, r.status))
        return json.loads(body)["FileStatuses"]["FileStatus"]

    def read(self, path):
        r, body = self.call("GET", path, "OPEN")
        if r.status == 307:
            loc = urllib.parse.urlsplit(r.getheader("Location"))
            d = http.client.HTTPConnection(loc.hostname, loc.port, timeout=60)
            d.request("GET", loc.path + "?" + loc.query)
            r = d.getresponse()
            body = r.read()
        if r.status != 200:
            raise SystemExit("OPEN %s: HTTP %d" % (path, r.status))
        return body

    def exists(self, path):
        r, _ = self.call("GET", path, "GETFILESTATUS")
        return r.status == 200

    def upload_tree(self, local, remote):
        self.mkdirs(remote)
        for name in sorted(os.listdir(local)):
            lp, rp = os.path.join(local, name), remote + "/" + name
            if os.path.isdir(lp):
                self.upload_tree(lp, rp)
            else:
                with open(lp, "rb") as f:
                    cw.upload(self.nn, rp, f.read(), self.user)

    def download_tree(self, remote, local, skip=()):
        os.makedirs(local, exist_ok=True)
        for e in self.list(remote) or []:
            name = e["pathSuffix"]
            if name in skip:
                continue
            if e["type"] == "DIRECTORY":
                self.download_tree(remote + "/" + name, os.path.join(local, name), skip)
            else:
                with open(os.path.join(local, name), "wb") as f:
                    f.write(self.read(remote + "/" + name))


def run(cmd, env=None, check=True, timeout=120):
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=timeout)
    if check and p.returncode != 0:
        fail("%s: exit %d\n%s" % (" ".join(cmd), p.returncode,
                                  p.stderr.decode(errors="replace")[-3000:]))
    return p


def cells(hfile, table_dir):
    """dump --table -p --json without the file paths (names differ between runs)."""
    out = run([hfile, "dump", "--table", table_dir, "-p", "--json"]).stdout.decode()
    return re.sub(r'"path":"[^"]*",', "", out)


def files_under(top):
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if x != ".hfile-jobs"]
        rel = os.path.relpath(d, top)
        out += [os.path.join(rel, f) for f in files]
    return sorted(out)


def shape(table_dir):
    """Dirs of the table (regions, families), without the store files' names."""
    out = []
    for d, dirs, _ in os.walk(table_dir):
        dirs[:] = [x for x in dirs if not x.startswith(".hfile-")]
        out.append(os.path.relpath(d, table_dir))
    return sorted(out)


def descriptor(table_dir):
    td = os.path.join(table_dir, ".tabledesc")
    newest = max(n for n in os.listdir(td) if n.startswith(".tableinfo"))
    with open(os.path.join(td, newest), "rb") as f:
        return newest, f.read()


def main():
    ap = argparse.ArgumentParser()
    for a in ("--launcher", "--bin", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    t_start = time.time()
    work = args.work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    hfile = os.path.join(args.bin, "hfile")
    user = getpass.getuser()

    # The table, made locally by the tools.
    base = os.path.join(work, "base")
    run([hfile, "create", base,
         "create 't', {NAME => 'a', VERSIONS => 2}, {NAME => 'b', COMPRESSION => 'ZSTD'}, "
         "{SPLITS => ['3', '6', '9']}"])
    tsv = os.path.join(work, "in.tsv")
    with open(tsv, "w") as f:
        x = 7
        for i in range(3000):
            x = (x * 1103515245 + 12345) % (1 << 32)
            f.write("%04d\tv%d\tbody-%d%s\n" % ((x >> 8) % 10000, i, i, "x" * ((x >> 4) % 150)))
    tsv2 = os.path.join(work, "in2.tsv")
    with open(tsv2, "w") as f:
        for i in range(2000):
            f.write("%04d\tload2-%d\tc%d\n" % ((i * 7919) % 10000, i, i))
    load = ["--columns", "HBASE_ROW_KEY,a:x,b:y", "--no-progress", "--now=" + NOW]
    for _ in range(2):  # two files per store: a compaction merges and drops versions
        run([hfile, "bulkload", "--into", "--root", base, "--table", "t"] + load + [tsv])
    if failures:
        return 1
    local_root = os.path.join(work, "local")
    shutil.copytree(base, local_root, symlinks=True)
    local = os.path.join(local_root, "data/default/t")
    regions = sorted(n for n in os.listdir(local) if not n.startswith("."))
    base_names = set(os.path.basename(f) for f in files_under(base))
    if len(regions) != 4:
        fail("the table has %d regions, want 4" % len(regions))
        return 1

    proc, info = cw.start_cluster(args, work)
    nn, rpc = info["namenode_http"], info["namenode_rpc"]
    hdfs = Hdfs(nn, user)
    proxy = NameNodeFaultProxy(nn)
    env = {k: v for k, v in os.environ.items() if k not in ("HADOOP_CONF_DIR",)}
    env["HFILE_WEBHDFS"] = nn  # hdfs://RPC paths, the NameNode's HTTP address from here
    root_uri = "hdfs://%s/hbase" % rpc
    table_uri = root_uri + "/data/default/t"
    task_work = os.path.join(work, "task-work")
    os.makedirs(task_work)
    timings = {}
    try:
        t = time.time()
        hdfs.upload_tree(base, "/hbase")
        print("uploaded the root (%d files) in %.1f s" %
              (len(files_under(base)), time.time() - t))

        def units_of(job):
            text = hdfs.read("/hbase/data/default/t/.hfile-jobs/%s/units.jsonl" % job)
            return [json.loads(l) for l in text.decode().splitlines() if l.strip()]

        def task(unit, attempt, extra_env=None, check=True):
            path = os.path.join(work, "unit-%s-%s.json" % (unit["job"], unit["id"]))
            with open(path, "w") as f:
                f.write(json.dumps(unit) + "\n")
            e = dict(env, **(extra_env or {}))
            return run([hfile, "task", path, "--attempt", attempt, "--work-dir", task_work,
                        "--json"], env=e, check=check)

        journal = "/hbase/data/default/t/.hfile-journal"

        def tree():
            """The table's entries on HDFS (path, type, length), its job and journal dirs left
            out."""
            out = []

            def walk(p):
                for e in hdfs.list(p) or []:
                    q = p + "/" + e["pathSuffix"]
                    if e["pathSuffix"] in (".hfile-jobs", ".hfile-journal"):
                        continue
                    out.append((q, e["type"], e["length"]))
                    if e["type"] == "DIRECTORY":
                        walk(q)
            walk("/hbase/data/default/t")
            return sorted(out)

        def through_failing_namenode(what, run_once, after_failure, min_failed):
            """Runs run_once(i, env) again and again through a NameNode that fails one request
            per run, refused and lost in turn, each time at the first step that has not failed
            so in an earlier run, until a run meets no failure: every step fails once each way.
            A run that fails must exit 3 (an I/O error); after_failure(i, mode, step) then
            checks what it left. A refused request must fail its run; a lost answer may not
            (the run may learn the outcome another way)."""
            penv = dict(env, HFILE_WEBHDFS=proxy.address)
            proxy.forget()
            failed = 0
            for i in range(400):
                mode = ("refuse", "lose")[i % 2]
                proxy.arm_new(mode)
                k = run_once(i, penv)
                if not proxy.fired:
                    if k.returncode != 0:
                        fail("%s: exit %d through a healthy NameNode\n%s" %
                             (what, k.returncode, (k.stdout + k.stderr)[-1000:]))
                    break
                if k.returncode == 0 and mode == "lose":
                    continue
                if k.returncode != 3:
                    fail("%s: the NameNode's %s of %s: exit %d (want 3)\n%s" %
                         (what, mode, proxy.fired, k.returncode, (k.stdout + k.stderr)[-1000:]))
                    break
                failed += 1
                after_failure(i, mode, proxy.fired)
            else:
                fail("%s never got through" % what)
            proxy.disarm()
            if failed < min_failed:
                fail("%s: only %d failed runs" % (what, failed))
            print("%s: %d runs failed by the NameNode, each at a step not failed before "
                  "(refused or lost), then one completed" % (what, failed))

        def namenode_faults(name, commit, job_id):
            """The commit through a failing NameNode (through_failing_namenode): each failed run
            leaves the table as it was, or its journal, which the next run finishes, or the
            transaction done with only the job dir's removal (the last step) left. The caller's
            compare() then checks what the last run left."""
            done = "/hbase/data/default/t/.hfile-jobs/%s.done" % job_id
            before = tree()

            def check(i, mode, step):
                if not hdfs.exists(journal) and not hdfs.exists(done) and tree() != before:
                    fail("%s: after the NameNode's %s of %s the table changed, with neither a "
                         "journal nor the job's done record" % (name, mode, step))

            through_failing_namenode("%s: the commit" % name,
                                     lambda i, penv: run(commit, env=penv, check=False),
                                     check, 10)

        def task_namenode_faults(name, unit):
            """A unit run through a failing NameNode (through_failing_namenode), each run a new
            attempt, as a scheduler retries exit 3: a failed attempt has no result.json unless
            only the answer to its last step was lost. The commit that follows must use one
            complete attempt."""
            attempts = "/hbase/data/default/t/.hfile-jobs/j-%s/attempts/%s/" % (name, unit["id"])

            def check(i, mode, step):
                if hdfs.exists(attempts + "9-%d/result.json" % i) and not (
                        mode == "lose" and "result.json" in step):
                    fail("%s: attempt 9-%d failed by the NameNode's %s of %s has a result.json" %
                         (name, i, mode, step))

            through_failing_namenode(
                "%s: unit %s" % (name, unit["id"]),
                lambda i, penv: task(unit, "9-%d" % i, penv, check=False), check, 6)

        def job(name, plan_argv, faults=(), table=table_uri):
            """Plans, runs every unit (with `faults`), commits; returns the units."""
            job_id = "j-" + name
            p = run([hfile] + plan_argv + ["--emit-units", "--job-id=" + job_id, "--json"],
                    env=env)
            if p.returncode != 0:
                return []
            units = units_of(job_id)
            if not units:
                fail("%s: no units planned" % name)
            for i, u in enumerate(units):
                if "kill" in faults and i == 0:
                    k = task(u, "0-0", {"HFILE_TASK_CRASH_AT": "mirrored"}, check=False)
                    if k.returncode not in (-signal.SIGKILL, 128 + 9):
                        fail("%s: the task to kill exited %d" % (name, k.returncode))
                    d = "/hbase/data/default/t/.hfile-jobs/%s/attempts/%s/0-0" % (job_id, u["id"])
                    if not hdfs.exists(d) or hdfs.exists(d + "/result.json"):
                        fail("%s: the killed attempt %s: dir %s, result %s" %
                             (name, d, hdfs.exists(d), hdfs.exists(d + "/result.json")))
                    # The commit refuses an incomplete job and touches nothing.
                    c = run([hfile, "task", "--commit", table + "/.hfile-jobs/" + job_id,
                             "--json"], env=env, check=False)
                    if c.returncode != 3 or b"job-incomplete" not in c.stdout:
                        fail("%s: commit with a killed unit: exit %d %s" %
                             (name, c.returncode, c.stdout[-500:]))
                    task(u, "0-1")
                elif "nn-faults" in faults and i == 0:
                    task_namenode_faults(name, u)
                elif "twice" in faults and i == 0:
                    task(u, "1-0")
                    task(u, "0-0")
                else:
                    task(u, "0-0")
            commit = [hfile, "task", "--commit", table + "/.hfile-jobs/" + job_id, "--json"]
            if "kill-commit" in faults:
                # Killed after the intent: the table is as it was; the next run rolls it back.
                before = tree()
                k = run(commit, env=dict(env, HFILE_TASK_COMMIT_CRASH_AT="journal-written"),
                        check=False)
                if k.returncode == 0 or tree() != before or not hdfs.exists(journal):
                    fail("%s: the commit killed after its intent: exit %d, table %s" %
                         (name, k.returncode, "unchanged" if tree() == before else "changed"))
                k = run(commit, env=dict(env, HFILE_TASK_COMMIT_CRASH_AT="commit-written"),
                        check=False)
                if k.returncode == 0 or not hdfs.exists(journal):
                    fail("%s: the commit killed after its record: exit %d, journal %s" %
                         (name, k.returncode, hdfs.exists(journal)))
            if "nn-faults" in faults:
                namenode_faults(name, commit, job_id)
            c = run(commit, env=env)
            if c.returncode == 0:
                rep = json.loads(c.stdout.decode().strip().splitlines()[-1])
                if not (rep.get("committed") or rep.get("already_committed")):
                    fail("%s: commit record %s" % (name, rep))
            if hdfs.exists(journal):
                fail("%s: the journal is left after the commit" % name)
            if not hdfs.exists("/hbase/data/default/t/.hfile-jobs/%s.done" % job_id):
                fail("%s: no %s.done" % (name, job_id))
            return units

        def compare(name):
            dl = os.path.join(work, "dl-" + name)
            hdfs.download_tree("/hbase", dl, skip=(".hfile-jobs",))
            remote_table = os.path.join(dl, "data/default/t")
            lc, rc = cells(hfile, local), cells(hfile, remote_table)
            if lc != rc or len(lc) < 100000:
                fail("%s: the cells differ from the local run (%d vs %d bytes of dump)" %
                     (name, len(rc), len(lc)))
            if descriptor(local) != descriptor(remote_table):
                fail("%s: the descriptor differs: %s vs %s" %
                     (name, descriptor(remote_table)[0], descriptor(local)[0]))
            if shape(local) != shape(remote_table):
                fail("%s: the dirs differ:\n  hdfs:  %s\n  local: %s" %
                     (name, shape(remote_table), shape(local)))
            # A file a job wrote has a random name, different in the two runs: archived again
            # by a later job it compares as "<written>" in its dir.
            def canon(names):
                return sorted(n if os.path.basename(n) in base_names else
                              os.path.join(os.path.dirname(n), "<written>") for n in names)
            la = canon(files_under(os.path.join(local_root, "archive")))
            ra = canon(files_under(os.path.join(dl, "archive")))
            if la != ra:
                fail("%s: the archives differ:\n  hdfs:  %s\n  local: %s" % (name, ra, la))
            v = run([hfile, "verify", "--table", remote_table, "--json"], check=False)
            if v.returncode != 0:
                fail("%s: verify of the download: exit %d\n%s" %
                     (name, v.returncode, v.stdout.decode(errors="replace")[-2000:]))
            print("%s: equal to the local run (%d bytes of cells, %d archived files, "
                  "verify clean)" % (name, len(lc), len(ra)))
            return ra

        # 1. compact --major; a unit run twice; locality hints.
        t = time.time()
        run([hfile, "compact", local, "--major", "--now=" + NOW])
        units = job("compact", ["compact", table_uri, "--major", "--now=" + NOW],
                    faults=("twice",))
        with_inputs = [u for u in units if u.get("inputs")]
        if not with_inputs or any(u.get("hosts") != ["127.0.0.1"] for u in with_inputs):
            fail("compact: the units' hosts: %s (want the DataNode, 127.0.0.1)" %
                 [u.get("hosts") for u in units])
        archived = compare("compact")
        if len(archived) != 16:
            fail("compact: %d files archived, want the 16 compacted" % len(archived))
        timings["compact"] = time.time() - t

        # 2. alter: a family's BLOCKSIZE and COMPRESSION; a task killed once mirrored.
        t = time.time()
        alter = ["--family=a", "--set=BLOCKSIZE=8192", "--set=COMPRESSION=GZ", "--now=" + NOW]
        run([hfile, "alter", local] + alter)
        job("alter", ["alter", table_uri] + alter, faults=("kill",))
        compare("alter")
        timings["alter"] = time.time() - t

        # 3. copy-family a c; the commit killed after its commit record, rerun: rolls forward.
        t = time.time()
        run([hfile, "copy-family", local, "a", "c", "--now=" + NOW])
        job("copy-family", ["copy-family", table_uri, "a", "c", "--now=" + NOW],
            faults=("kill-commit",))
        compare("copy-family")
        timings["copy-family"] = time.time() - t

        # 4. split of one region (the largest: its stores span blocks, so it has a split
        # point): the parent region dir goes to the archive.
        t = time.time()

        def region_bytes(r):
            return sum(os.path.getsize(os.path.join(local, r, f)) for f in files_under(
                os.path.join(local, r)))
        parent = max(regions, key=region_bytes)
        run([hfile, "split", os.path.join(local, parent), "--now=" + NOW])
        # Through a webhdfs:// URI (the NameNode's HTTP address in it) this time.
        web_table = "webhdfs://%s/hbase/data/default/t" % nn
        job("split", ["split", web_table + "/" + parent, "--now=" + NOW], table=web_table)
        archived = compare("split")
        if "data/default/t/%s/.regioninfo" % parent not in archived:
            fail("split: the parent region %s is not in the archive" % parent)
        timings["split"] = time.time() - t

        # 5. a second bulk load --into (partition and write stages).
        t = time.time()
        run([hfile, "bulkload", "--into", "--table", local] + load + [tsv2])
        job("bulkload", ["bulkload", "--into", "--table", table_uri] + load + [tsv2],
            faults=("nn-faults",))
        archived = compare("bulkload")
        timings["bulkload"] = time.time() - t

        # 6. alter --drop-family c: every region's c dir goes to the archive, whole.
        t = time.time()
        c_files = sum(len(files_under(os.path.join(local, r, "c"))) for r in os.listdir(local)
                      if os.path.isdir(os.path.join(local, r, "c")))
        before = len(archived)
        run([hfile, "alter", local, "--drop-family=c", "--now=" + NOW])
        job("drop-family", ["alter", table_uri, "--drop-family=c", "--now=" + NOW],
            faults=("nn-faults",))
        archived = compare("drop-family")
        if c_files == 0 or len(archived) - before != c_files:
            fail("drop-family: %d files archived, the c dirs held %d" %
                 (len(archived) - before, c_files))
        timings["drop-family"] = time.time() - t
    finally:
        proxy.stop()
        cw.stop_cluster(proc)

    print("jobs: " + ", ".join("%s %.1f s" % kv for kv in timings.items()))
    print("total %.1f s" % (time.time() - t_start))
    if failures:
        print("%d check(s) failed; work dir kept: %s" % (len(failures), work), file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
