#!/usr/bin/env python3
"""hfile dump/verify on hdfs:// files against a real HDFS (MiniDFSCluster 3.5.0, loopback).

Starts the launcher (MiniHdfs.java) once, uploads the fixtures of testdata/hbase and the damaged
files of ../shared/testdata/fuzz-seeds over WebHDFS (Python's http.client: not our client), then
checks that every `hfile-dump --json` and `hfile-verify --json` run on the hdfs:// path prints
exactly what it prints for the local path (the path itself replaced) with the same exit code;
runs webhdfs_cluster_test (our client's calls); checks the errors of a missing file, a directory
and a stopped NameNode. The cluster is stopped by closing the launcher's stdin (and killed by
its pid if it does not go). Exit 0 when every check passed.
"""
import argparse
import concurrent.futures
import getpass
import glob
import http.client
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def start_cluster(args, work):
    cp_file = os.path.join(args.launcher, "classpath.txt")
    classes = os.path.join(args.launcher, "classes")
    with open(cp_file) as f:
        cp = f.read().strip() + ":" + classes
    tmp = os.path.join(work, "java-tmp")  # Jetty's scratch dirs go here, not to /tmp
    os.makedirs(tmp)
    ports = os.path.join(work, "ports.json")
    log = open(os.path.join(work, "launcher.log"), "w")
    proc = subprocess.Popen(
        ["java", "-Xmx512m", "-Djava.io.tmpdir=" + tmp, "-cp", cp, "org.hfilekit.hdfs.MiniHdfs",
         "--base-dir", os.path.join(work, "dfs"), "--ports-file", ports],
        stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    t0 = time.time()
    while not os.path.exists(ports):
        if proc.poll() is not None:
            log.flush()
            print(open(log.name).read()[-4000:], file=sys.stderr)
            raise SystemExit("the MiniDFSCluster launcher exited with %d" % proc.returncode)
        if time.time() - t0 > 120:
            proc.kill()
            raise SystemExit("the MiniDFSCluster did not come up in 120 s")
        time.sleep(0.2)
    with open(ports) as f:
        info = json.load(f)
    print("cluster up in %.1f s: %s" % (time.time() - t0, info))
    return proc, info


def stop_cluster(proc):
    if proc.poll() is not None:
        return
    proc.stdin.close()  # the launcher shuts the cluster down and exits
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def upload(nn, hdfs_path, data, user):
    """WebHDFS two-step CREATE with http.client (independent of hfilekit's client)."""
    host, port = nn.split(":")
    q = urllib.parse.urlencode({"op": "CREATE", "overwrite": "true", "user.name": user})
    c = http.client.HTTPConnection(host, int(port), timeout=30)
    c.request("PUT", "/webhdfs/v1" + urllib.parse.quote(hdfs_path) + "?" + q)
    r = c.getresponse()
    r.read()
    if r.status != 307:
        raise SystemExit("CREATE %s: HTTP %d" % (hdfs_path, r.status))
    loc = urllib.parse.urlsplit(r.getheader("Location"))
    d = http.client.HTTPConnection(loc.hostname, loc.port, timeout=30)
    d.request("PUT", loc.path + "?" + loc.query, body=data,
              headers={"Content-Type": "application/octet-stream"})
    r = d.getresponse()
    r.read()
    if r.status != 201:
        raise SystemExit("CREATE %s at the DataNode: HTTP %d" % (hdfs_path, r.status))


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    for a in ("--launcher", "--bin", "--testdata", "--shared", "--cluster-test", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    t_start = time.time()
    work = args.work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    dump = os.path.join(args.bin, "hfile-dump")
    verify = os.path.join(args.bin, "hfile-verify")
    user = getpass.getuser()

    inputs = sorted(glob.glob(os.path.join(args.testdata, "hbase", "*.hfile")))
    seeds_dir = os.path.join(args.shared, "testdata", "fuzz-seeds", "riverbed")
    seeds = sorted(glob.glob(os.path.join(seeds_dir, "*")))
    if not seeds:
        print("WARNING: %s is absent: the damaged-file checks are SKIPPED" % seeds_dir,
              file=sys.stderr)
    if not inputs:
        raise SystemExit("no fixtures in %s/hbase" % args.testdata)

    proc, info = start_cluster(args, work)
    nn = info["namenode_http"]
    rpc = info["namenode_rpc"]
    try:
        remote = {}
        t_phase = time.time()
        for local in inputs + seeds:
            kind = "fixtures" if local in inputs else "damaged"
            remote[local] = "/%s/%s" % (kind, os.path.basename(local))

        def put(local):
            with open(local, "rb") as f:
                upload(nn, remote[local], f.read(), user)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(put, inputs + seeds))
        print("uploaded %d fixtures and %d damaged files in %.1f s" %
              (len(inputs), len(seeds), time.time() - t_phase))
        t_phase = time.time()

        # How the NameNode's HTTP address is given: --webhdfs, $HFILE_WEBHDFS,
        # $HADOOP_CONF_DIR/hdfs-site.xml, or a webhdfs:// URI naming it.
        conf = os.path.join(work, "conf")
        os.makedirs(conf)
        with open(os.path.join(conf, "hdfs-site.xml"), "w") as f:
            f.write("<configuration><property><name>dfs.namenode.http-address</name>"
                    "<value>%s</value></property></configuration>\n" % nn)
        base_env = {k: v for k, v in os.environ.items()
                    if k not in ("HFILE_WEBHDFS", "HADOOP_CONF_DIR")}
        ways = [
            ("--webhdfs", lambda p: ("hdfs://%s%s" % (rpc, p), ["--webhdfs", nn], base_env)),
            ("HFILE_WEBHDFS", lambda p: ("hdfs://%s%s" % (rpc, p), [],
                                         dict(base_env, HFILE_WEBHDFS=nn))),
            ("hdfs-site.xml", lambda p: ("hdfs://127.0.0.1%s" % p, [],
                                         dict(base_env, HADOOP_CONF_DIR=conf))),
            ("webhdfs://", lambda p: ("webhdfs://%s%s" % (nn, p), [], base_env)),
        ]
        modes = [
            (dump, ["--json", "-m", "-b", "-h", "-s", "-p"]),  # every part, one run
            (verify, ["--json"]),
        ]
        def compare(job):
            i, local, tool, flags = job
            way_name, way = ways[i % len(ways)]
            uri, extra, env = way(remote[local])
            lc, lo, le = run([tool] + flags + [local], env=base_env)
            rc, ro, re_ = run([tool] + flags + extra + [uri], env=env)
            ro = ro.replace(uri.encode(), local.encode())
            re_ = re_.replace(uri.encode(), local.encode())
            what = "%s %s %s (address by %s)" % (os.path.basename(tool), " ".join(flags), uri,
                                                 way_name)
            if (rc, ro) != (lc, lo):
                return ("%s: exit %d, %d bytes out; local: exit %d, %d bytes out\n%s" %
                        (what, rc, len(ro), lc, len(lo), re_.decode(errors="replace")[-2000:]))
            if re_ != le:
                return ("%s: stderr differs:\n  hdfs:  %s\n  local: %s" %
                        (what, re_.decode(errors="replace")[-1000:],
                         le.decode(errors="replace")[-1000:]))
            return None
        jobs = [(i, local, tool, flags) for i, local in enumerate(inputs + seeds)
                for tool, flags in modes]
        # Three at a time: a run mostly waits for the NameNode and DataNode.
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            for problem in pool.map(compare, jobs):
                if problem:
                    fail(problem)
        compared = len(jobs)
        print("compared %d dump/verify runs, hdfs:// vs local, in %.1f s" %
              (compared, time.time() - t_phase))
        # All files in one verify run on 4 threads (one remote file each), and the front end.
        uris = ["hdfs://%s%s" % (rpc, remote[l]) for l in inputs + seeds]
        lc, lo, _ = run([verify, "--json", "-j", "4"] + inputs + seeds)
        rc, ro, re_ = run([verify, "--json", "-j", "4", "--webhdfs", nn] + uris)
        for u, l in zip(uris, inputs + seeds):
            ro = ro.replace(u.encode(), l.encode())
        if (rc, ro) != (lc, lo):
            fail("verify -j 4 of all %d files: exit %d vs %d local, outputs differ\n%s" %
                 (len(uris), rc, lc, re_.decode(errors="replace")[-2000:]))
        lc, lo, _ = run([os.path.join(args.bin, "hfile"), "dump", "--json", "-p", inputs[0]])
        rc, ro, _ = run([os.path.join(args.bin, "hfile"), "dump", "--json", "-p", "--webhdfs", nn,
                         uris[0]])
        if (rc, ro.replace(uris[0].encode(), inputs[0].encode())) != (lc, lo):
            fail("hfile dump (the front end) of %s differs from the local file" % uris[0])
        damaged_exit = sum(1 for s in seeds if run([verify, "--json", s])[0] != 0)
        print("%d of %d damaged files fail verify (the same way over hdfs://)" %
              (damaged_exit, len(seeds)))

        # Errors: a missing file, a directory, other remote schemes and options still refused.
        missing = "hdfs://%s/fixtures/no-such.hfile" % rpc
        code, out, err = run([dump, "--webhdfs", nn, missing])
        err = err.decode()
        if code != 3 or "no such file on HDFS" not in err or missing not in err:
            fail("dump of a missing hdfs:// file: exit %d, stderr %r (want 3, 'no such file')" %
                 (code, err))
        code, out, err = run([verify, "--json", "--webhdfs", nn, missing])
        if code != 3 or b"no such file on HDFS" not in out + err:
            fail("verify of a missing hdfs:// file: exit %d, out %r err %r" % (code, out, err))
        code, out, err = run([dump, "--webhdfs", nn, "hdfs://%s/fixtures" % rpc])
        if code != 3 or b"not a regular file" not in err:
            fail("dump of an hdfs:// directory: exit %d, stderr %r" % (code, err))
        code, out, err = run([dump, "--table", "hdfs://%s/hbase/data/default/t" % rpc])
        if code != 1 or b"hdfs:// paths are not supported yet" not in err:
            fail("dump --table hdfs://: exit %d, stderr %r (want 1, 'not supported yet')" %
                 (code, err))
        code, out, err = run([dump, "s3a://bucket/f"])
        if code != 1 or b"s3a:// paths are not supported yet" not in err:
            fail("dump s3a://: exit %d, stderr %r" % (code, err))

        # Our client's own calls (MKDIRS, two-step CREATE, LISTSTATUS, ranged OPEN across
        # blocks, RENAME, DELETE) against the real servers.
        p = subprocess.run([args.cluster_test], env=dict(os.environ, HFILE_TEST_WEBHDFS=nn),
                           capture_output=True, text=True, timeout=120)
        summary = [l for l in p.stdout.splitlines() if l.startswith("[  PASSED") or
                   l.startswith("[  FAILED") or "FAILED" in l]
        print("webhdfs_cluster_test: exit %d; %s" % (p.returncode, "; ".join(summary)))
        t_phase = time.time()
        if p.returncode != 0:
            fail("webhdfs_cluster_test failed:\n" + p.stdout[-4000:] + p.stderr[-2000:])
    finally:
        stop_cluster(proc)

    print("cluster stopped in %.1f s" % (time.time() - t_phase))
    # The NameNode down: a clear IOError (exit 3) naming the URL.
    first = remote[inputs[0]]
    code, out, err = run([dump, "--webhdfs", nn, "hdfs://%s%s" % (rpc, first)])
    err = err.decode()
    want_url = "http://%s/webhdfs/v1%s" % (nn, first)
    if code != 3 or want_url not in err or "Couldn't connect" not in err:
        fail("dump with the NameNode down: exit %d, stderr %r (want 3, the URL and "
             "\"Couldn't connect\")" % (code, err))
    else:
        print("NameNode down: exit 3, " + err.strip().splitlines()[0])

    print("total %.1f s" % (time.time() - t_start))
    if failures:
        print("%d check(s) failed; work dir kept: %s" % (len(failures), work), file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
