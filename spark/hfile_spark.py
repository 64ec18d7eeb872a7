#!/usr/bin/env python3
"""Runs an hfilekit writing tool as Spark tasks: plan, one task per unit, one commit.

    spark-submit --master yarn --archives hfilekit.tgz#hfilekit spark/hfile_spark.py \\
        [--job-id ID] [--work-dir DIR] [--no-commit] [--json] -- \\
        compact hdfs://nn:8020/hbase/data/default/t1 --major

The words after `--` are an hfilekit command as one machine would run it (compact, alter,
copy-family, split, or bulkload --into). The driver plans it (`hfile TOOL ... --emit-units`),
runs every unit that has no complete attempt as a Spark task (`hfile task - --attempt A`, in a
subprocess whose exit status fails the task, so Spark retries it), stage by stage (a bulk load's
partition units before its write units), and then commits the job itself, alone, through the
table's journal (`hfile task --commit`). doc/distributed.md has the protocol.

Why this shape: a task writes only into its own attempt dir, so a retried, speculative or
duplicated task cannot harm the table; the one commit is the only writer of the table, so a
driver killed at any point leaves the table as it was or as committed, and a rerun with the same
--job-id runs only the units still missing (or finds the job committed and does nothing).

The binary the tasks run: --task-hfile, else `hfilekit/bin/hfile-task` in the archive shipped
with `--archives hfilekit.tgz#hfilekit` (scripts/spark-archive.sh makes it, with the shared
libraries it needs under lib/), else the driver's own. Exit status: 0 committed (or nothing to
do); the hfilekit codes otherwise (1 usage, 2 corruption, 3 unreadable or a unit that kept
failing).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid

ARCHIVE_ALIAS = "hfilekit"


def log(msg):
    print("hfile-spark: " + msg, file=sys.stderr, flush=True)


def find_driver_binary(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "build", "bin", "hfile"),
                 os.path.join(here, "..", "bin", "hfile")):
        if os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    found = shutil.which("hfile")
    if not found:
        raise SystemExit("hfile-spark: no hfile binary: give --hfile PATH")
    return found


def run_json(cmd):
    """Runs an hfilekit command that prints JSON lines; returns (exit code, records, stderr)."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    records = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                records.append(json.loads(line))
            except ValueError:
                pass  # not a record: the exit code and stderr say what went wrong
    return exit_code(p.returncode), records, p.stderr


def exit_code(code):
    """A process killed by signal N as a shell reports it (128 + N), not Python's -N."""
    return 128 - code if code < 0 else code


class DriverError(Exception):
    """An hfilekit step the driver needs failed; `code` is the exit status to end with."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def task_binary(given):
    """Inside a task: the hfile-task binary and the environment to run it in."""
    env = dict(os.environ)
    if given:
        return given, env
    from pyspark import SparkFiles
    root = os.path.join(SparkFiles.getRootDirectory(), ARCHIVE_ALIAS)
    if not os.path.isdir(root):  # local mode may unpack archives beside the work dir
        root = os.path.join(os.getcwd(), ARCHIVE_ALIAS)
    binary = os.path.join(root, "bin", "hfile-task")
    if not os.access(binary, os.X_OK):
        raise RuntimeError("no %s in the shipped archive %s (spark-submit --archives "
                           "hfilekit.tgz#%s, or --task-hfile)" % (binary, root, ARCHIVE_ALIAS))
    lib = os.path.join(root, "lib")
    env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH")
                                    else "")
    return binary, env


def make_task_runner(task_hfile, run_token, work_dir, threads):
    """The function each Spark task runs over its partition's units (one subprocess a unit)."""

    def run_units(units):
        from pyspark import TaskContext
        ctx = TaskContext.get()
        # Unique per run of a unit: the driver run's random token (a rerun of the driver, or a
        # YARN re-attempt of the application, keeps no ids) and Spark's task attempt id (unique
        # within the application: retries and speculative copies each have their own).
        attempt = "%s-%d-%d" % (run_token, ctx.stageId(), ctx.taskAttemptId())
        binary, env = task_binary(task_hfile)
        cmd = [binary]
        if os.path.basename(binary) == "hfile":
            cmd.append("task")
        cmd += ["-", "--attempt", attempt, "--json", "--threads", str(threads)]
        if work_dir:
            cmd += ["--work-dir", work_dir]
        for unit in units:
            t0 = time.time()
            p = subprocess.run(cmd, input=unit, capture_output=True, text=True, env=env)
            lines = p.stdout.strip().splitlines()
            if p.returncode != 0 or not lines:
                # Raising fails the task: Spark runs it again (spark.task.maxFailures).
                raise RuntimeError("hfile task exited %d on unit %s (attempt %s): %s" % (
                    exit_code(p.returncode), json.loads(unit).get("id"), attempt,
                    p.stderr.strip()[-2000:]))
            result = json.loads(lines[-1])
            result["task_seconds"] = time.time() - t0
            yield json.dumps(result)

    return run_units


def units_rdd(sc, units):
    """One partition per unit, each preferring the hosts that hold its inputs' blocks (the
    unit's `hosts`), through SparkContext.makeRDD's location preferences; parallelize when no
    unit names a host."""
    if not any(json.loads(u).get("hosts") for u in units):
        return sc.parallelize(units, len(units))
    import pickle
    from pyspark.rdd import RDD
    from pyspark.serializers import CPickleSerializer
    jvm = sc._jvm
    conv = jvm.scala.jdk.javaapi.CollectionConverters
    pairs = jvm.java.util.ArrayList()
    for u in units:
        hosts = jvm.java.util.ArrayList()
        for h in json.loads(u).get("hosts") or []:
            hosts.add(h)
        pairs.add(jvm.scala.Tuple2(bytearray(pickle.dumps(u, 2)), conv.asScala(hosts).toSeq()))
    tag = jvm.scala.reflect.ClassTag.apply(jvm.java.lang.Class.forName("[B"))
    jrdd = sc._jsc.sc().makeRDD(conv.asScala(pairs).toSeq(), tag).toJavaRDD()
    return RDD(jrdd, sc, CPickleSerializer())


def stage_of(unit):
    """"partition" for a bulk load's first stage, "work" for every other unit."""
    return "partition" if json.loads(unit).get("stage") == "partition" else "work"


def crash_point(name):
    """For the fault tests: HFILE_SPARK_CRASH_AT=NAME kills the driver there (SIGKILL)."""
    if os.environ.get("HFILE_SPARK_CRASH_AT") == name:
        log("HFILE_SPARK_CRASH_AT=%s: killing the driver" % name)
        os.kill(os.getpid(), signal.SIGKILL)


class ArgumentParser(argparse.ArgumentParser):
    """Usage errors exit 1, as every hfilekit tool's (argparse's own is 2: corruption here)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print("%s: %s" % (self.prog, message), file=sys.stderr)
        sys.exit(1)


def main(argv, spark=None):
    """Runs one job; `spark` is a SparkSession to use (and keep), else one is made if a unit
    needs running and stopped at the end."""
    ap = ArgumentParser(
        prog="hfile_spark.py",
        description="Run an hfilekit writing tool (compact, alter, copy-family, split, "
                    "bulkload --into) as Spark tasks, then commit it once.")
    ap.add_argument("--hfile", help="the hfile binary the driver plans and commits with "
                                    "(default: the build's, then PATH)")
    ap.add_argument("--task-hfile", help="the hfile or hfile-task binary tasks run (default: "
                                         "bin/hfile-task of the --archives ...#hfilekit archive)")
    ap.add_argument("--job-id", help="the job's id (required): a rerun with the same id resumes "
                                     "the job, or finds it committed")
    ap.add_argument("--work-dir", help="where a task mirrors a unit of a table on HDFS")
    ap.add_argument("--rounds", type=int, default=3,
                    help="runs of a stage's missing units after a failed Spark job (default 3)")
    ap.add_argument("--no-commit", action="store_true",
                    help="run the units, leave the commit to 'hfile task --commit JOB'")
    ap.add_argument("--json", action="store_true", help="print one spark-job JSON record")
    ap.add_argument("--version", action="store_true",
                    help="print the version of hfilekit (the --hfile binary's) and exit")
    ap.add_argument("command", nargs=argparse.REMAINDER,
                    help="-- TOOL TARGET ARGS...: the hfilekit command")
    a = ap.parse_args(argv)
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if a.version:
        v = subprocess.run([find_driver_binary(a.hfile), "--version"], capture_output=True,
                           text=True).stdout.split()
        print("hfile_spark.py (hfilekit) %s" % (v[-1] if v else "unknown"))
        return 0
    if not command or command[0] not in ("compact", "alter", "copy-family", "split", "bulkload"):
        ap.error("give the command after --: compact|alter|copy-family|split|bulkload ...")
    if not a.job_id:
        # A default id would make a rerun (or a YARN re-attempt of the application) plan a new
        # job: a bulk load loaded twice, a region split again.
        ap.error("--job-id is required: a rerun with the same id resumes the job")
    hfile = find_driver_binary(a.hfile)
    t_start = time.time()
    try:
        return run_job(a, command, hfile, t_start, spark)
    except DriverError as e:
        log(str(e))
        return e.code


def run_job(a, command, hfile, t_start, spark):

    plan_cmd = [hfile] + command + ["--emit-units", "--json", "--job-id", a.job_id]
    code, recs, err = run_json(plan_cmd)
    plan = next((r for r in recs if r.get("kind") == "units"), None)
    if code != 0 or plan is None or plan.get("error"):
        log("the plan failed (exit %d): %s" % (code, (plan or {}).get("error") or err.strip()))
        return code or 3
    job_dir = plan["job_dir"]
    summary = {"kind": "spark-job", "v": 1, "job": plan["job"], "job_dir": job_dir,
               "table": plan["table"], "tool": command[0], "units": plan["units"],
               "bytes": plan["bytes"], "reused": plan["reused"], "ran": 0, "failed_rounds": 0,
               "committed": False, "already_committed": plan["already_committed"],
               "plan_seconds": round(time.time() - t_start, 3), "_t0": t_start}
    if plan["already_committed"]:
        # The commit records the job done before it archives the replaced files: a commit
        # interrupted there is finished by running it again (it recovers the journal first).
        log("job %s of %s was committed: finishing what its commit may have left" % (
            plan["job"], plan["table"]))
        return commit(a, hfile, job_dir, plan, summary)
    log("job %s: %d unit(s), %d bytes%s" % (plan["job"], plan["units"], plan["bytes"],
                                            " (planned before: resuming)" if plan["reused"]
                                            else ""))

    t_run = time.time()
    own_session = spark is None
    run_token = uuid.uuid4().hex[:12]
    try:
        for stage in ("partition", "work"):
            for attempt_round in range(a.rounds + 1):
                todo = pending_units(hfile, job_dir, stage)
                if not todo:
                    break
                if spark is None:  # only now: a resumed job with every unit done needs none
                    from pyspark.sql import SparkSession
                    spark = SparkSession.builder.appName(
                        "hfilekit %s %s" % (command[0], plan["job"])).getOrCreate()
                sc = spark.sparkContext
                log("%s stage: %d unit(s) to run%s" % (
                    stage, len(todo), " (again)" if attempt_round else ""))
                # A task keeps as many threads busy as Spark gave it cores (1 or 2).
                threads = min(2, max(1, int(sc.getConf().get("spark.task.cpus", "1"))))
                runner = make_task_runner(a.task_hfile, run_token, a.work_dir, threads)
                try:
                    results = units_rdd(sc, todo).mapPartitions(runner).collect()
                    summary["ran"] += len(results)
                    summary["task_seconds"] = summary.get("task_seconds", 0) + sum(
                        json.loads(r)["task_seconds"] for r in results)
                except Exception as e:  # a task failed more often than Spark retries it
                    summary["failed_rounds"] += 1
                    first = (str(e).strip().splitlines() or [type(e).__name__])[0]
                    log("a Spark job failed: %s" % first[:500])
            # No stage starts before the one it reads is complete.
            left = pending_units(hfile, job_dir, stage)
            if left:
                log("%d unit(s) of the %s stage still have no complete attempt after %d "
                    "round(s)" % (len(left), stage, a.rounds + 1))
                return finish(a, summary, 3)
    finally:
        summary["run_seconds"] = round(time.time() - t_run, 3)
        if own_session and spark is not None:
            spark.stop()
    crash_point("before-commit")

    if a.no_commit:
        log("every unit is done; commit with: hfile task --commit %s" % job_dir)
        return finish(a, summary, 0)
    return commit(a, hfile, job_dir, plan, summary)


def commit(a, hfile, job_dir, plan, summary):
    """The job's one commit (or, for a job recorded done, the end of an interrupted one)."""
    t_commit = time.time()
    code, recs, err = run_json([hfile, "task", "--commit", job_dir, "--json"])
    crash_point("after-commit")
    summary["commit_seconds"] = round(time.time() - t_commit, 3)
    rec = next((r for r in recs if r.get("kind") == "task-commit"), {})
    summary["committed"] = bool(rec.get("committed") or rec.get("already_committed"))
    for k in ("puts", "archives", "deletes", "bytes_added", "bytes_removed"):
        summary[k] = rec.get(k)
    if code != 0:
        log("the commit failed (exit %d): %s" % (code, rec.get("error") or err.strip()))
        return finish(a, summary, code)
    log("job %s committed: %s put(s), %s archived, %s deleted" % (
        plan["job"], rec.get("puts"), rec.get("archives"), rec.get("deletes")))
    return finish(a, summary, 0)


def pending_units(hfile, job_dir, stage):
    """The units of `stage` ("partition" or "work") without a complete attempt."""
    p = subprocess.run([hfile, "task", "--pending", job_dir], capture_output=True, text=True)
    if p.returncode != 0:
        raise DriverError(exit_code(p.returncode) or 3,
                          "cannot list the job's units: " + p.stderr.strip())
    return [l for l in p.stdout.splitlines() if l.strip() and stage_of(l) == stage]


def finish(a, summary, code):
    summary["seconds"] = round(time.time() - summary.pop("_t0"), 3)
    summary["exit"] = code
    if a.json:
        print(json.dumps(summary, sort_keys=True), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
