#!/usr/bin/env python3
"""Fault-injection suite for the writing tools (issue 10; tests/faults/README.md).

Runs hfile-rewrite and hfile-compact under the LD_PRELOAD shim (fault_shim.c): once to count
the file calls they make, then once per fault point and action (EIO, ENOSPC, SIGKILL before
or after the call, SIGTERM), and checks after each run that no data was lost, that nothing
partial sits under a final name, the exit code, and that a normal rerun completes cleanly
with the same cells as an uninterrupted run. One line per case, then "N passed, N failed".
"""

import argparse
import errno as errno_mod
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

# Temporary names the tools write under (hfile/temp_files.h): .<name>.tmp-<pid> (a Writer's
# file), .<name>.rewrite-<pid> (hfile-rewrite's unverified output) and ..<name>.rewrite-<pid>.tmp-<pid>.
TEMP_NAME = re.compile(r"^\..*\.(tmp|rewrite)-\d+(\.tmp-\d+)?$")
import tempfile
import time

NOW_MS = "1700000000000"
STRERROR = {"EIO": os.strerror(errno_mod.EIO), "ENOSPC": os.strerror(errno_mod.ENOSPC)}
# Errors in these calls may be survived (cleanup of an already-empty dir, closing a reader).
TOLERATED_ERRORS = {"rmdir"}
# Not errors: an interrupted call (EINTR) or a short transfer must simply be retried.
TRANSIENT = ("short", "EINTR")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Tools:
    def __init__(self, bin_dir, shim, gen):
        self.bin = bin_dir
        self.shim = shim
        self.gen = gen

    def path(self, tool):
        return os.path.join(self.bin, tool)

    def run(self, argv, env=None, timeout=120):
        e = dict(os.environ)
        for k in list(e):
            if k.startswith("HFK_") or k == "LD_PRELOAD":
                del e[k]
        if env:
            e.update(env)
        p = subprocess.run(argv, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def cells(self, args):
        """The cell lines hfile-dump -p prints (sorted out of the surrounding text)."""
        rc, out, err = self.run([self.path("hfile-dump"), "-p"] + args)
        if rc != 0:
            return None, f"hfile-dump -p {' '.join(args)} exited {rc}: {err.strip()[:300]}"
        return [l for l in out.splitlines() if l.startswith("K: ")], None

    def verify(self, path):
        rc, out, err = self.run([self.path("hfile-verify"), path])
        return rc, (out + err).strip()[-300:]


class Case:
    def __init__(self, scenario, op, nth, action, signal_no=9, sticky=False, note=""):
        self.scenario, self.op, self.nth, self.action = scenario, op, nth, action
        self.signal = signal_no
        self.sticky = sticky
        self.note = note

    @property
    def tolerated(self):
        """Errors a tool may survive: best-effort cleanup."""
        return self.op in TOLERATED_ERRORS or (self.op == "unlink" and self.note in (
            ".tmp dir", "journal.new", ".hfile-journal.new"))  # an empty dir / an absent torn journal

    @property
    def kill(self):
        return self.action.startswith("kill")

    @property
    def name(self):
        a = self.action
        if self.kill and self.signal != 9:
            a += "-" + signal.Signals(self.signal).name
        n = f"{self.scenario} {self.op}#{self.nth} {a}"
        if self.note:
            n += f" ({self.note})"
        return n

    def env(self, shim, prefix, log):
        e = {"LD_PRELOAD": shim, "HFK_FAULT_OP": self.op, "HFK_FAULT_NTH": str(self.nth),
             "HFK_FAULT_ACTION": self.action, "HFK_FAULT_PREFIX": prefix, "HFK_FAULT_LOG": log}
        if self.kill:
            e["HFK_FAULT_SIGNAL"] = str(self.signal)
        if self.sticky:
            e["HFK_FAULT_STICKY"] = "1"
        return e


def parse_trace(path):
    """[(op, index, prefix_index, path, path2)] of the calls under the prefix."""
    calls = []
    with open(path) as f:
        for line in f:
            if line.startswith("count "):
                continue
            parts = line.rstrip("\n").split(" ", 3)
            if len(parts) < 4 or parts[2] == "0":
                continue
            p, _, p2 = parts[3].partition(" -> ")
            calls.append((parts[0], int(parts[1]), int(parts[2]), p, p2))
    return calls


def traced_calls(tools, name, argv, prefix, trace):
    """The file calls under `prefix` of one uninterrupted run of argv under the shim."""
    rc, _, err = tools.run(argv, {"LD_PRELOAD": tools.shim, "HFK_TRACE": trace,
                                  "HFK_FAULT_PREFIX": prefix})
    if rc != 0:
        raise RuntimeError(f"{name}: uninterrupted run under the shim exited {rc}: {err}")
    return parse_trace(trace)


def sample(indices, k=3):
    """First, last and a few in between."""
    indices = sorted(set(indices))
    if len(indices) <= k + 2:
        return indices
    picks = {indices[0], indices[-1]}
    for i in range(1, k + 1):
        picks.add(indices[i * (len(indices) - 1) // (k + 1)])
    return sorted(picks)


class Failures:
    def __init__(self):
        self.items = []

    def add(self, invariant, detail):
        self.items.append((invariant, detail))

    def __bool__(self):
        return bool(self.items)


def expect_exit(case, rc, err, fails, out_side=True):
    """Exit-code invariants after a run with an injected fault."""
    if case.action in TRANSIENT:
        if rc != 0:
            fails.add("transient-not-retried",
                      f"a {case.action} {case.op} (the caller must retry) made the tool exit {rc}: "
                      f"{err.strip()[-240:]}")
        return True
    if case.kill:
        if rc == -case.signal:
            return True
        if case.signal != 9 and rc > 0:
            return True  # SIGTERM handled: the tool cleaned up and exited non-zero
        fails.add("fault-fired", f"expected death by signal {case.signal}, got exit {rc}")
        return False
    if rc == 0:
        if not case.tolerated:
            fails.add("error-swallowed",
                      f"injected {case.action} into {case.op}#{case.nth}, tool exited 0")
        return True
    if rc < 0:
        fails.add("exit-code", f"died by signal {-rc} after an injected {case.action}")
        return False
    if rc != 3:
        what = {2: "Corruption (2)", 1: "usage (1)"}.get(rc, str(rc))
        fails.add("exit-code", f"expected 3 (I/O error) for an injected {case.action} in "
                               f"{case.op}, got {what}: {err.strip().splitlines()[-1][:240] if err.strip() else ''}")
    want = STRERROR.get(case.action)
    if want and want not in err:
        fails.add("error-message", f"stderr does not say \"{want}\": {err.strip()[:240]}")
    return True


# ------------------------------------------------------------------------------------------
# hfile-rewrite


class RewriteScenario:
    """hfile-rewrite IN OUT. mode "new": OUT does not exist yet (own directory); "existing": OUT
    already holds another HFile, which a failed run must leave intact; "inplace": IN IN."""

    def __init__(self, tools, work, source, mode="new", previous=None):
        self.t = tools
        self.mode = mode
        self.name = {"new": "rewrite", "existing": "rewrite-over-existing",
                     "inplace": "rewrite-inplace", "outdir": "rewrite-out-dir"}[mode]
        self.base = os.path.join(work, self.name)
        os.makedirs(self.base)
        self.source = source
        self.source_sha = sha256(source)
        self.previous = previous
        self.previous_sha = sha256(previous) if previous else None
        self.ref_cells, err = tools.cells([source])
        if err:
            raise RuntimeError(err)

    def layout(self, d):
        if os.path.exists(d):
            shutil.rmtree(d)
        if self.mode == "inplace":
            os.makedirs(d)
            x = os.path.join(d, "x.hfile")
            shutil.copyfile(self.source, x)
            return x, x, d
        os.makedirs(os.path.join(d, "in"))
        os.makedirs(os.path.join(d, "out"))
        inp = os.path.join(d, "in", "in.hfile")
        shutil.copyfile(self.source, inp)
        out = os.path.join(d, "out", "out.hfile")
        if self.mode == "existing":
            shutil.copyfile(self.previous, out)
        return inp, out, os.path.join(d, "out")

    def argv(self, inp, out):
        if self.mode == "inplace":
            return [self.t.path("hfile-rewrite"), "--in-place", inp, out]
        return [self.t.path("hfile-rewrite"), inp, out]

    def label(self, p):
        n = os.path.basename(p)
        if re.match(TEMP_NAME, n):
            return "output temp"
        if self.mode == "inplace":
            return "IN=OUT" if n == "x.hfile" else "dir"
        return {"in.hfile": "input", "out.hfile": "output", "out": "output dir",
                "in": "input dir"}.get(n, n)

    def count(self):
        d = os.path.join(self.base, "count")
        inp, out, _ = self.layout(d)
        return traced_calls(self.t, self.name, self.argv(inp, out), d,
                            os.path.join(self.base, "trace"))

    def cases(self):
        calls = self.count()
        by_op = {}
        for c in calls:
            by_op.setdefault(c[0], []).append(c)
        cases = []
        for op in ("open_w", "fsync", "rename", "unlink", "link", "mkdir", "ftruncate"):
            for c in by_op.get(op, []):
                note = self.label(c[3]) + (" -> " + self.label(c[4]) if c[4] else "")
                for a in ("EIO", "kill-before", "kill-after"):
                    cases.append(Case(self.name, op, c[2], a, note=note))
                if op == "open_w" or (op == "fsync" and "dir" not in note):
                    cases.append(Case(self.name, op, c[2], "ENOSPC", sticky=True, note=note))
        written = {c[3] for c in by_op.get("open_w", [])}
        for op in ("write", "writev", "pwrite"):
            for n in sample([c[2] for c in by_op.get(op, [])]):
                for a in ("EIO", "kill-before", "kill-after"):
                    cases.append(Case(self.name, op, n, a, note="output temp"))
                cases.append(Case(self.name, op, n, "ENOSPC", sticky=True, note="output temp"))
        for c in by_op.get("close", []):
            if c[3] in written:
                cases.append(Case(self.name, "close", c[2], "EIO", note="output temp"))
        # Reads: of the input while copying; after the rename, of the output while verifying.
        # (By path, so that a tool verifying its temporary file before the rename is covered.)
        rename_at = next((i for i, c in enumerate(calls) if c[0] == "rename"), len(calls))
        outputs = {c[4] for c in by_op.get("rename", [])} | {c[3] for c in by_op.get("open_w", [])}
        def verifying(i, c):
            return self.label(c[3]) == "output temp" or (c[3] in outputs and i > rename_at)
        before = [c[2] for i, c in enumerate(calls) if c[0] == "pread" and not verifying(i, c)]
        after = [c[2] for i, c in enumerate(calls) if c[0] == "pread" and verifying(i, c)]
        for n in sample(before, 2):
            cases.append(Case(self.name, "pread", n, "EIO", note="input"))
        for n in sample(after, 2):
            cases.append(Case(self.name, "pread", n, "EIO", note="verifying"))
        # Transient: a short or interrupted write/read is retried, the output is still right.
        wop = max(("write", "writev", "pwrite"), key=lambda o: len(by_op.get(o, [])))
        writes = [c[2] for c in by_op.get(wop, [])]
        for op, idx in ((wop, writes), ("pread", before)):
            for n in sorted({idx[0], idx[len(idx) // 2]} if idx else set()):
                for a in TRANSIENT:
                    cases.append(Case(self.name, op, n, a, note="output temp" if op == wop
                                      else "input"))
        # SIGTERM (an operator's kill or Ctrl-C): the tool should clean up after itself.
        if writes:
            cases.append(Case(self.name, wop, writes[len(writes) // 2], "kill-before",
                              signal_no=signal.SIGTERM, note="output temp"))
        if after:
            cases.append(Case(self.name, "pread", after[len(after) // 2], "kill-before",
                              signal_no=signal.SIGTERM, note="verifying"))
        if self.mode != "new":  # the cases that differ from a fresh output
            cases = [c for c in cases if (c.op in ("pread", "fsync", "rename", "close")
                     or c.signal != 9 or c.action in ("EIO",)) and c.action not in TRANSIENT]
        return cases

    def temps(self, out_dir, out):
        base = os.path.basename(out)
        return sorted(n for n in os.listdir(out_dir)
                      if TEMP_NAME.match(n) and (n.startswith("." + base + ".")
                                                 or n.startswith(".." + base + ".")))

    def repro(self, case, d, inp, out):
        e = case.env(self.t.shim, d, "stderr")
        pre = "# OUT holds another HFile first\n          " if self.mode == "existing" else ""
        return pre + " ".join(f"{k}={shlex.quote(v)}" for k, v in e.items()) + " " + \
            " ".join(shlex.quote(a) for a in self.argv(inp, out))

    def output_ok(self, out, fails, invariant, what):
        """True iff `out` is complete and holds the input's cells (else a failure is added)."""
        rc, msg = self.t.verify(out)
        if rc != 0:
            fails.add(invariant, f"{what} {out} is not a complete HFile: hfile-verify exits {rc}: {msg}")
            return False
        cells, err = self.t.cells([out])
        if err or cells != self.ref_cells:
            fails.add(invariant, f"{what} {out} does not hold the input's cells "
                                 f"({len(cells or [])} vs {len(self.ref_cells)}) {err or ''}")
            return False
        return True

    def run_case(self, case, idx):
        d = os.path.join(self.base, f"c{idx}")
        inp, out, out_dir = self.layout(d)
        log = os.path.join(self.base, f"c{idx}.log")
        fails = Failures()
        rc, _, err = self.t.run(self.argv(inp, out), case.env(self.t.shim, d, log))
        fired = os.path.exists(log) and os.path.getsize(log) > 0
        if not fired:
            fails.add("fault-fired", "the fault point was not reached (nondeterministic calls?)")
        else:
            expect_exit(case, rc, err, fails)
        # Data: the input is intact (in place: X still holds every cell, complete).
        if self.mode == "inplace":
            if not os.path.exists(inp):
                fails.add("input-intact", f"{inp} (IN = OUT) is gone: the only copy of the data "
                                          "was deleted")
            elif sha256(inp) != self.source_sha:
                self.output_ok(inp, fails, "input-intact", "IN = OUT")
        else:
            if not os.path.exists(inp) or sha256(inp) != self.source_sha:
                fails.add("input-intact", f"{inp} changed or vanished")
            # Nothing partial under OUT: absent (or the old file), or complete.
            if case.action in TRANSIENT and rc == 0 and not os.path.exists(out):
                fails.add("no-partial-output", f"exit 0 but {out} does not exist")
            if os.path.exists(out):
                if not (self.previous_sha and sha256(out) == self.previous_sha):
                    self.output_ok(out, fails, "no-partial-output", "OUT")
            elif self.mode == "existing":
                fails.add("existing-output-intact", f"the HFile that was at {out} is gone after a "
                                                    "failed run (neither old nor new file left)")
        # A failed run that was not SIGKILLed must not leave its temporary file behind.
        left = self.temps(out_dir, out)
        if left and not (case.kill and case.signal == 9):
            why = "after SIGTERM" if case.kill else f"after the {case.action} error"
            fails.add("temp-cleanup", f"{why}: left {', '.join(left)}")
        # A normal rerun completes, leaves no temp files, and yields the same cells.
        if os.path.exists(inp):
            rc2, _, err2 = self.t.run(self.argv(inp, out))
            if rc2 != 0:
                fails.add("rerun-exit", f"rerun exited {rc2}: {err2.strip()[:240]}")
            else:
                self.output_ok(out, fails, "rerun-cells", "after the rerun, OUT")
            left = self.temps(out_dir, out)
            if left:
                fails.add("rerun-stale-temp", f"after the rerun {out_dir} still holds {', '.join(left)}")
        return fails, self.repro(case, d, inp, out)


class OutDirScenario(RewriteScenario):
    """hfile-rewrite --out-dir D IN1 IN2: a fault in either file; D holds only complete outputs."""

    def __init__(self, tools, work, source, second):
        super().__init__(tools, work, source, "outdir")
        self.second = second
        self.second_sha = sha256(second)
        self.second_cells, err = tools.cells([second])

    def layout(self, d):
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(os.path.join(d, "in"))
        os.makedirs(os.path.join(d, "D"))
        a, b = os.path.join(d, "in", "in1.hfile"), os.path.join(d, "in", "in2.hfile")
        shutil.copyfile(self.source, a)
        shutil.copyfile(self.second, b)
        return (a, b), os.path.join(d, "D"), os.path.join(d, "D")

    def argv(self, inp, out):
        return [self.t.path("hfile-rewrite"), "--out-dir", out] + list(inp)

    def label(self, p):
        n = os.path.basename(p)
        if re.match(TEMP_NAME, n):
            return "output temp"
        if n in ("in1.hfile", "in2.hfile"):
            return n
        return "D" if n == "D" else "output"

    def cases(self):
        calls = self.count()
        cases = []
        # Which input each call serves: the output opened most recently.
        nth_output = 0
        for op, _, pn, path, path2 in calls:
            if op == "open_w":
                nth_output += 1
            note = f"file {max(nth_output, 1)}: " + self.label(path) + (
                " -> " + self.label(path2) if path2 else "")
            if op in ("open_w", "fsync", "rename"):
                for a in ("EIO", "kill-before", "kill-after"):
                    cases.append(Case(self.name, op, pn, a, note=note))
        for n in sample([c[2] for c in calls if c[0] == "writev"], 2):
            cases.append(Case(self.name, "writev", n, "ENOSPC", sticky=True))
        return cases

    def temps(self, out_dir, out):
        return sorted(n for n in os.listdir(out_dir) if n.startswith("."))

    def run_case(self, case, idx):
        d = os.path.join(self.base, f"c{idx}")
        (a, b), out_dir, _ = self.layout(d)
        log = os.path.join(self.base, f"c{idx}.log")
        fails = Failures()
        rc, _, err = self.t.run(self.argv((a, b), out_dir), case.env(self.t.shim, d, log))
        if not (os.path.exists(log) and os.path.getsize(log) > 0):
            fails.add("fault-fired", "the fault point was not reached (nondeterministic calls?)")
        else:
            expect_exit(case, rc, err, fails)
        if sha256(a) != self.source_sha or sha256(b) != self.second_sha:
            fails.add("input-intact", "an input changed")
        for n in sorted(os.listdir(out_dir)):
            if n.startswith("."):
                continue
            p = os.path.join(out_dir, n)
            vrc, msg = self.t.verify(p)
            cells, _ = self.t.cells([p]) if vrc == 0 else (None, None)
            if vrc != 0 or cells not in (self.ref_cells, self.second_cells):
                fails.add("no-partial-output", f"D/{n} is not a complete copy of an input "
                                               f"(hfile-verify {vrc}: {msg[:120]})")
        left = self.temps(out_dir, None)
        if left and not (case.kill and case.signal == 9):
            fails.add("temp-cleanup", f"after the {case.action} error: left {', '.join(left)}")
        rc2, _, err2 = self.t.run(self.argv((a, b), out_dir))
        if rc2 != 0:
            fails.add("rerun-exit", f"rerun exited {rc2}: {err2.strip()[:240]}")
        left = self.temps(out_dir, None)
        if left:
            fails.add("rerun-stale-temp", f"after the rerun D still holds {', '.join(left)}")
        return fails, self.repro(case, d, (a, b), out_dir)


# ------------------------------------------------------------------------------------------
# hfile-compact


class CompactScenario:
    """hfile-compact --major of a fresh table; or, with crash="committed"/"uncommitted", of a
    table a SIGKILL left just after / just before family a's output was committed (the rerun's
    recovery is then what the faults hit)."""

    # A rerun that finds nothing to do need not touch the region: an empty .tmp/ left by a
    # failed rmdir is harmless (HBase leaves empty ones itself and wipes .tmp/ on open).
    EMPTY_TMP_OK = False

    def __init__(self, tools, work, files=3, cells=1500, delete_replaced=False, crash=None):
        self.t = tools
        self.delete = delete_replaced
        self.crash = crash
        self.name = getattr(self, "SCENARIO", None) or \
            ("compact-delete-replaced" if delete_replaced else "compact") + \
            (f"-recovery-{crash}" if crash else "")
        self.base = os.path.join(work, self.name)
        self.template = os.path.join(self.base, "template")
        rc, out, err = tools.run([tools.gen, "table", self.template, str(files), str(cells)])
        if rc != 0:
            raise RuntimeError(f"hfk-fault-gen table: {err}")
        if crash:  # rename #3 writes family a's commit record (the next one puts its output)
            log = os.path.join(self.base, "crash.log")
            rc, _, err = tools.run(self.argv(self.template), {
                "LD_PRELOAD": tools.shim, "HFK_FAULT_OP": "rename", "HFK_FAULT_NTH": "3",
                "HFK_FAULT_ACTION": "kill-after" if crash == "committed" else "kill-before",
                "HFK_FAULT_PREFIX": self.template, "HFK_FAULT_LOG": log})
            if rc != -9:
                raise RuntimeError(f"{self.name}: preparing the crashed table: exit {rc}: {err}")
        self.originals = {}  # (family, name) -> sha256
        tdir = os.path.join(self.template, "data/default/t")
        self.region = next(n for n in os.listdir(tdir) if not n.startswith("."))
        rdir = os.path.join(tdir, self.region)
        self.families = sorted(n for n in os.listdir(rdir) if not n.startswith("."))
        for fam in self.families:
            for n in os.listdir(os.path.join(rdir, fam)):
                self.originals[(fam, n)] = sha256(os.path.join(rdir, fam, n))
        # The uninterrupted run.
        ref = self.layout(os.path.join(self.base, "ref"))
        rc, _, err = tools.run(self.argv(ref))
        if rc != 0:
            raise RuntimeError(f"{self.name}: uninterrupted hfile-compact exited {rc}: {err}")
        self.ref_table, err = tools.cells(["--table", self.table(ref)])
        if err:
            raise RuntimeError(err)
        self.ref_family = {}
        self.kept_by_ref = set()  # originals the uninterrupted run leaves in place (a committed output)
        for fam in self.families:
            names = self.new_files(ref, fam)
            kept = [n for (f, n) in self.originals if f == fam and
                    os.path.exists(os.path.join(self.fdir(ref, fam), n))]
            self.kept_by_ref |= {(fam, n) for n in kept}
            if len(names) + len(kept) != 1:
                raise RuntimeError(f"{self.name}: uninterrupted run left {names + kept} in {fam}")
            self.ref_family[fam], err = tools.cells([os.path.join(self.fdir(ref, fam),
                                                                  (names + kept)[0])])
        # Originals that already are the compacted output (the crashed run committed them).
        self.holders = set()
        if crash:
            for (fam, n) in self.originals:
                cells, _ = tools.cells([os.path.join(rdir, fam, n)])
                if cells == self.ref_family[fam]:
                    self.holders.add((fam, n))

    def table(self, root):
        return os.path.join(root, "data/default/t")

    def rdir(self, root):
        return os.path.join(self.table(root), self.region)

    def fdir(self, root, fam):
        return os.path.join(self.rdir(root), fam)

    def adir(self, root, fam):
        return os.path.join(root, "archive/data/default/t", self.region, fam)

    def layout(self, root):
        if os.path.exists(root):
            shutil.rmtree(root)
        shutil.copytree(self.template, root)
        return root

    def argv(self, root):
        return [self.t.path("hfile-compact"), "--major", "--now", NOW_MS] + \
            (["--delete-replaced"] if self.delete else []) + [self.table(root)]

    def new_files(self, root, fam):
        return sorted(n for n in os.listdir(self.fdir(root, fam)) if (fam, n) not in self.originals)

    def count(self):
        root = self.layout(os.path.join(self.base, "count"))
        return traced_calls(self.t, self.name, self.argv(root), root,
                            os.path.join(self.base, "trace"))

    def cases(self):
        calls = self.count()
        by_op = {}
        for c in calls:
            by_op.setdefault(c[0], []).append(c)
        cases = []
        for op in ("open_w", "fsync", "rename", "unlink", "link", "mkdir", "rmdir", "ftruncate"):
            for c in by_op.get(op, []):
                note = short(c[3], c[4])
                # A kill before a directory's fsync is a kill after the call before it.
                kills = ("kill-after",) if op == "fsync" and note.endswith("dir") else (
                    "kill-before", "kill-after")
                for a in ("EIO",) + kills:
                    cases.append(Case(self.name, op, c[2], a, note=note))
                if op in ("open_w", "mkdir") or (op == "fsync" and "dir" not in note):
                    cases.append(Case(self.name, op, c[2], "ENOSPC", sticky=True, note=note))
        written = {c[3] for c in by_op.get("open_w", [])}
        for op in ("write", "writev", "pwrite"):
            for n in sample([c[2] for c in by_op.get(op, [])]):
                c = next(x for x in by_op[op] if x[2] == n)
                for a in ("EIO", "kill-before", "kill-after"):
                    cases.append(Case(self.name, op, n, a, note=short(c[3], "")))
                cases.append(Case(self.name, op, n, "ENOSPC", sticky=True, note=short(c[3], "")))
        for c in by_op.get("close", []):
            if c[3] in written:
                cases.append(Case(self.name, "close", c[2], "EIO", note=short(c[3], "")))
        inputs = [c for c in by_op.get("pread", []) if "/.tmp/" not in c[3]]
        for n in sample([c[2] for c in inputs], 2):
            cases.append(Case(self.name, "pread", n, "EIO", note="input"))
        verify = [c for c in by_op.get("pread", []) if "/.tmp/" in c[3]]
        for n in sample([c[2] for c in verify], 1):
            cases.append(Case(self.name, "pread", n, "EIO", note="verifying the output"))
        for op, what in (("writev", "output temp"), ("write", "journal.new"), ("pread", "input")):
            idx = [c[2] for c in by_op.get(op, []) if short(c[3], "") == what or
                   (what == "input" and "/.tmp/" not in c[3])]
            if idx:
                for a in TRANSIENT:
                    cases.append(Case(self.name, op, idx[len(idx) // 2], a, note=what))
        for op in ("writev", "fsync"):
            idx = [c[2] for c in by_op.get(op, []) if label(c[3]) == "output temp"]
            if idx:
                cases.append(Case(self.name, op, idx[len(idx) // 2], "kill-before",
                                  signal_no=signal.SIGTERM, note="output"))
        if self.crash:  # only the recovery: the calls before the rerun writes its own journal
            first = next((i for i, c in enumerate(calls) if c[0] == "open_w"), len(calls))
            keep = {(c[0], c[2]) for c in calls[:first]} | {("open_w", calls[first][2])} \
                if first < len(calls) else {(c[0], c[2]) for c in calls}
            cases = [c for c in cases if (c.op, c.nth) in keep]
        if self.delete:  # only what differs from archiving: the disposal of the replaced files
            cases = [c for c in cases if c.op in ("unlink", "fsync", "rename")
                     and c.action != "ENOSPC" and (c.op != "fsync" or "family" in c.note)]
        return cases

    def repro(self, case, root):
        e = case.env(self.t.shim, root, "stderr")
        return " ".join(f"{k}={shlex.quote(v)}" for k, v in e.items()) + " " + \
            " ".join(shlex.quote(a) for a in self.argv(root))

    def tmp_entries(self, root):
        t = os.path.join(self.rdir(root), ".tmp")
        return sorted(os.listdir(t)) if os.path.isdir(t) else []

    def stray_temps(self, root):
        out = []
        for dirpath, _, names in os.walk(root):
            for n in names:
                if re.match(TEMP_NAME, n) or n.endswith(".new"):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
        return sorted(out)

    def check_store_state(self, root, fails, after_rerun):
        """Originals byte-identical in the family dir or the archive; any other file in a family
        dir complete and holding the uninterrupted run's cells; nothing archived uncommitted."""
        for fam in self.families:
            committed = []
            for n in self.new_files(root, fam):
                p = os.path.join(self.fdir(root, fam), n)
                rc, msg = self.t.verify(p)
                if rc != 0:
                    fails.add("no-partial-output", f"{fam}/{n} is not a complete HFile "
                                                   f"(hfile-verify {rc}: {msg})")
                    continue
                cells, err = self.t.cells([p])
                if cells != self.ref_family[fam]:
                    fails.add("no-partial-output", f"{fam}/{n} holds {len(cells or [])} cells, "
                                                   f"the uninterrupted run {len(self.ref_family[fam])}")
                    continue
                committed.append(n)
            committed += [n for (f, n) in self.holders if f == fam and
                          os.path.exists(os.path.join(self.fdir(root, fam), n))]
            for (f, n), digest in self.originals.items():
                if f != fam or ((f, n) in self.holders and (f, n) in self.kept_by_ref):
                    continue
                live = os.path.join(self.fdir(root, fam), n)
                arch = os.path.join(self.adir(root, fam), n)
                if os.path.exists(live):
                    if sha256(live) != digest:
                        fails.add("originals-intact", f"{fam}/{n} changed in place")
                    elif after_rerun:
                        fails.add("rerun-archived", f"{fam}/{n} still in the family dir after the rerun")
                elif self.delete:
                    if not committed:
                        fails.add("originals-intact", f"{fam}/{n} deleted but no output committed "
                                                      "in the family: its cells are lost")
                elif os.path.exists(arch):
                    if sha256(arch) != digest:
                        fails.add("originals-intact", f"archived {fam}/{n} differs from the original")
                    elif not committed:
                        fails.add("originals-intact", f"{fam}/{n} archived but no output committed "
                                                      "in the family: its cells are no longer read")
                else:
                    fails.add("originals-intact", f"{fam}/{n} is in neither the family dir nor the archive")
            if after_rerun and len(committed) != 1:
                fails.add("rerun-cells", f"family {fam} holds {len(committed)} compacted files after the rerun")

    def run_case(self, case, idx):
        root = self.layout(os.path.join(self.base, f"c{idx}"))
        log = os.path.join(self.base, f"c{idx}.log")
        fails = Failures()
        rc, _, err = self.t.run(self.argv(root), case.env(self.t.shim, root, log))
        fired = os.path.exists(log) and os.path.getsize(log) > 0
        if not fired:
            fails.add("fault-fired", "the fault point was not reached (nondeterministic calls?)")
        else:
            expect_exit(case, rc, err, fails)
        self.check_store_state(root, fails, after_rerun=False)
        strays = self.stray_temps(root)
        if strays and not (case.kill and case.signal == 9):
            why = "after SIGTERM" if case.kill else f"after the {case.action} error"
            fails.add("temp-cleanup", f"{why}: left {', '.join(strays)}")
        if case.kill and case.signal != 9 and self.tmp_entries(root):
            fails.add("temp-cleanup", f"after SIGTERM: .tmp/ holds {', '.join(self.tmp_entries(root))}")
        rc2, out2, err2 = self.t.run(self.argv(root))
        if rc2 != 0:
            fails.add("rerun-exit", f"rerun exited {rc2}: {(err2.strip() or out2.strip())[-300:]}")
        else:
            self.check_store_state(root, fails, after_rerun=True)
            cells, err = self.t.cells(["--table", self.table(root)])
            if cells != self.ref_table:
                fails.add("rerun-cells", f"table holds {len(cells or [])} cells after the rerun, "
                                         f"the uninterrupted run {len(self.ref_table)} {err or ''}")
            if self.tmp_entries(root) or (os.path.isdir(os.path.join(self.rdir(root), ".tmp"))
                                          and not self.EMPTY_TMP_OK):
                fails.add("rerun-stale-temp", f"after the rerun .tmp/ remains: {self.tmp_entries(root)}")
            strays = self.stray_temps(root)
            if strays:
                fails.add("rerun-stale-temp", f"after the rerun: {', '.join(strays)}")
        return fails, self.repro(case, root)


class AlterScenario(CompactScenario):
    """hfile-alter of the compaction table: both families' codecs change, so every store is
    major-compacted under the new descriptor after the table's transaction (the new .tableinfo,
    the families still to rewrite) is committed. Same invariants as compact, plus: the descriptor always reads, the journal is gone
    after the rerun."""

    STATEMENT = "alter 't', {NAME => 'a', COMPRESSION => 'GZ'}, {NAME => 'b', COMPRESSION => 'NONE'}"

    SCENARIO = "alter"
    EMPTY_TMP_OK = True

    def argv(self, root):
        return [self.t.path("hfile-alter"), "--now", NOW_MS, root, self.STATEMENT]

    def run_case(self, case, idx):
        fails, repro = super().run_case(case, idx)
        root = os.path.join(self.base, f"c{idx}")
        if os.path.exists(os.path.join(self.table(root), ".hfile-journal")):
            fails.add("rerun-stale-temp", "after the rerun the table journal .hfile-journal remains")
        staged = [n for n in os.listdir(self.table(root)) if n.startswith(".hfile-")]
        if staged:
            fails.add("rerun-stale-temp", f"after the rerun the table dir holds {staged}")
        tmp = os.path.join(self.table(root), ".tabledesc", ".tmp")
        if os.path.isdir(tmp) and os.listdir(tmp):
            fails.add("rerun-stale-temp", f"after the rerun .tabledesc/.tmp holds {os.listdir(tmp)}")
        return fails, repro


# ------------------------------------------------------------------------------------------
# Table transactions: hfile-copy-family and hfile-split (the table journal, region/commit.h)


class TableTxnScenario:
    """A writing tool that commits one table transaction on the compaction table (template
    made by hfk-fault-gen table). Invariants: every original store file byte-identical, in its
    family dir or in the archive, never lost; the descriptor always reads; every family the
    descriptor names is served whole (its region's files complete, holding either the original
    cells or the uninterrupted run's); the documented exit code; a rerun completes with the
    uninterrupted run's layout and cells, and leaves no journal, staging dir or temp file."""

    def __init__(self, tools, work, name, files=3, cells=800):
        self.t = tools
        self.name = name
        self.base = os.path.join(work, name)
        self.template = os.path.join(self.base, "template")
        rc, _, err = tools.run([tools.gen, "table", self.template, str(files), str(cells)])
        if rc != 0:
            raise RuntimeError(f"hfk-fault-gen table: {err}")
        self.originals = self.record_originals()
        self.before = self.snapshot(self.template)
        ref = self.layout(os.path.join(self.base, "ref"))
        rc, out, err = tools.run(self.argv(ref))
        if rc != 0:
            raise RuntimeError(f"{name}: the uninterrupted run exited {rc}: {err}")
        self.after = self.snapshot(ref)

    def record_originals(self):
        """{(region, family, name): sha256} of the template's store files (sets self.region)."""
        tdir = self.table(self.template)
        self.region = next(n for n in os.listdir(tdir) if not n.startswith("."))
        originals = {}
        rdir = os.path.join(tdir, self.region)
        for fam in sorted(n for n in os.listdir(rdir) if not n.startswith(".")):
            for n in os.listdir(os.path.join(rdir, fam)):
                originals[(self.region, fam, n)] = sha256(os.path.join(rdir, fam, n))
        return originals

    def table(self, root):
        return os.path.join(root, "data/default/t")

    def layout(self, root):
        if os.path.exists(root):
            shutil.rmtree(root)
        shutil.copytree(self.template, root)
        return root

    def families(self, root):
        rc, out, err = self.t.run([self.t.gen, "families", self.table(root)])
        return out.split() if rc == 0 else None

    def served(self, root):
        """{(region, family): sorted cell lines} of what HBase would open: the descriptor's
        families in every region dir (regions: dirs with a .regioninfo)."""
        fams = self.families(root)
        tdir = self.table(root)
        out = {}
        for r in sorted(os.listdir(tdir)):
            if not os.path.exists(os.path.join(tdir, r, ".regioninfo")):
                continue
            for fam in fams or []:
                d = os.path.join(tdir, r, fam)
                files = sorted(os.path.join(d, n) for n in os.listdir(d)) if os.path.isdir(d) else []
                files = [f for f in files if not os.path.basename(f).startswith(".")]
                cells, err = self.t.cells(files) if files else ([], None)
                out[(r, fam)] = sorted(cells) if cells is not None else err
        return out

    def snapshot(self, root):
        return {"families": self.families(root), "served": self.served(root)}

    def count(self):
        root = self.layout(os.path.join(self.base, "count"))
        return traced_calls(self.t, self.name, self.argv(root), root,
                            os.path.join(self.base, "trace"))

    def cases(self):
        by_op = {}
        for c in self.count():
            by_op.setdefault(c[0], []).append(c)
        cases = []
        for op in ("open_w", "fsync", "rename", "unlink", "link", "mkdir", "rmdir", "ftruncate"):
            # Calls of one kind on the same kind of path (each staged output's fsync, each
            # archived file's rename) go through the same code: the first and the last stand
            # for the rest.
            kinds = {}
            for c in by_op.get(op, []):
                kind = re.sub(r"[0-9a-f]{8,}|\d+", "N", short(c[3], c[4]))
                kinds.setdefault(kind, []).append(c)
            for calls in kinds.values():
                for n in sample([c[2] for c in calls], 0):
                    note = short(*next(c[3:5] for c in calls if c[2] == n))
                    for a in ("EIO", "kill-before", "kill-after"):
                        cases.append(Case(self.name, op, n, a, note=note))
                    if op in ("open_w", "mkdir"):
                        cases.append(Case(self.name, op, n, "ENOSPC", sticky=True, note=note))
        for op in ("write", "writev", "pwrite"):
            for n in sample([c[2] for c in by_op.get(op, [])]):
                c = next(x for x in by_op[op] if x[2] == n)
                for a in ("EIO", "kill-before", "ENOSPC"):
                    cases.append(Case(self.name, op, n, a, sticky=a == "ENOSPC",
                                      note=short(c[3], "")))
                for a in TRANSIENT:
                    cases.append(Case(self.name, op, n, a, note=short(c[3], "")))
        preads = [c[2] for c in by_op.get("pread", [])]
        for n in sample(preads, 4):
            cases.append(Case(self.name, "pread", n, "EIO"))
        if preads:
            cases.append(Case(self.name, "pread", preads[len(preads) // 2], "kill-before",
                              signal_no=signal.SIGTERM))
        return cases

    def repro(self, case, root):
        e = case.env(self.t.shim, root, "stderr")
        return " ".join(f"{k}={shlex.quote(v)}" for k, v in e.items()) + " " + \
            " ".join(shlex.quote(a) for a in self.argv(root))

    def check_originals(self, root, fails):
        for (r, fam, n), digest in self.originals.items():
            live = os.path.join(self.table(root), r, fam, n)
            arch = os.path.join(root, "archive/data/default/t", r, fam, n)
            where = [p for p in (live, arch) if os.path.exists(p)]
            if not where:
                fails.add("originals-intact", f"{r[:8]}/{fam}/{n} is in neither its dir nor the archive")
            for p in where:
                if sha256(p) != digest:
                    fails.add("originals-intact", f"{os.path.relpath(p, root)} changed")

    def check_served(self, root, fails):
        """What HBase would open now is the state before or the state after, never a mix."""
        fams = self.families(root)
        if fams is None:
            fails.add("descriptor", "the table descriptor does not read")
            return
        now = self.served(root)
        if {"families": fams, "served": now} in (self.before, self.after):
            return
        # Allowed between the steps of a committed transaction: each (region, family) HBase
        # would open holds what it holds after the uninterrupted run, or else what it held
        # before (a region or family of neither state holds nothing).
        for key, cells in now.items():
            if key in self.after["served"]:
                want = self.after["served"][key]
            else:
                want = self.before["served"].get(key, [])
            if cells != want:
                fails.add("no-partial-output", f"{key[0][:8]}/{key[1]} holds {len(cells)} cells, "
                                               f"the state {'after' if key in self.after['served'] else 'before'} "
                                               f"{len(want)}")

    def stray(self, root):
        out = []
        tdir = self.table(root)
        if os.path.exists(os.path.join(tdir, ".hfile-journal")):
            out.append(".hfile-journal")
        out += [n for n in os.listdir(tdir) if n.startswith(".hfile-")
                and n != ".hfile-journal"]
        for dirpath, dirs, names in os.walk(root):
            for n in names:
                if re.match(TEMP_NAME, n) or n.endswith(".new"):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
        return sorted(set(out))

    def rerun_ok(self, rc, out, err, before_rerun):
        return rc == 0

    def rerun_needed(self, root, before_rerun):
        return True

    def run_case(self, case, idx):
        root = self.layout(os.path.join(self.base, f"c{idx}"))
        log = os.path.join(self.base, f"c{idx}.log")
        fails = Failures()
        rc, _, err = self.t.run(self.argv(root), case.env(self.t.shim, root, log))
        if not (os.path.exists(log) and os.path.getsize(log) > 0):
            fails.add("fault-fired", "the fault point was not reached (nondeterministic calls?)")
        else:
            expect_exit(case, rc, err, fails)
        self.check_originals(root, fails)
        self.check_served(root, fails)
        before_rerun = self.snapshot(root)
        if not self.rerun_needed(root, before_rerun):
            strays = self.stray(root)
            if strays:
                fails.add("stale-temp", f"after the finished run: {', '.join(strays)}")
            return fails, self.repro(case, root)
        rc2, out2, err2 = self.t.run(self.argv(root))
        if not self.rerun_ok(rc2, out2, err2, before_rerun):
            fails.add("rerun-exit", f"rerun exited {rc2}: {(err2.strip() or out2.strip())[-300:]}")
        else:
            self.check_originals(root, fails)
            now = self.snapshot(root)
            if now != self.after:
                fails.add("rerun-cells", f"after the rerun: families {now['families']}, "
                                         f"{sum(len(v) for v in now['served'].values())} cells in "
                                         f"{len(now['served'])} stores; uninterrupted run: "
                                         f"{self.after['families']}, "
                                         f"{sum(len(v) for v in self.after['served'].values())} "
                                         f"in {len(self.after['served'])}")
            strays = self.stray(root)
            if strays:
                fails.add("rerun-stale-temp", f"after the rerun: {', '.join(strays)}")
        return fails, self.repro(case, root)


class CopyFamilyScenario(TableTxnScenario):
    """hfile-copy-family --drop-old t a c: two table transactions (NEW added, then OLD dropped)."""

    def __init__(self, tools, work):
        super().__init__(tools, work, "copy-family")

    def argv(self, root):
        return [self.t.path("hfile-copy-family"), "--now", NOW_MS, "--drop-old",
                self.table(root), "a", "c"]

    def rerun_ok(self, rc, out, err, before_rerun):
        # Once the copy and the drop are done, OLD is gone: a rerun is refused as naming a family
        # the table does not have (usage, 1), with nothing left to finish.
        return rc == 0 or (rc == 1 and "has no family a" in err and before_rerun == self.after)


class SplitScenario(TableTxnScenario):
    """hfile-split --at ROW REGION: two daughters staged, put, the parent archived."""

    def __init__(self, tools, work):
        super().__init__(tools, work, "split")

    SPLIT_ROW = "row000700"

    def argv(self, root):
        return [self.t.path("hfile-split"), "--now", NOW_MS, "--at", self.SPLIT_ROW,
                os.path.join(self.table(root), self.region)]

    def rerun_ok(self, rc, out, err, before_rerun):
        # The parent is gone once the split is done: a rerun then has nothing to split (a
        # missing path, 3) and nothing to finish.
        return rc == 0 or (rc == 3 and before_rerun == self.after)


class CreateScenario(TableTxnScenario):
    """hfile-create ROOT "create 'n', ...": a new table of three regions staged in the namespace
    dir and put in place by one journaled rename, in the root of the compaction table t.
    Invariants: t's files byte-identical; no table n, or the whole of it (the uninterrupted
    run's regions and families); a rerun of the same command completes (or says the table
    exists when the faulted run had finished it) and leaves no journal or staging dir."""

    STATEMENT = ("create 'n', {NAME => 'a', VERSIONS => 2}, {NAME => 'b', COMPRESSION => 'GZ'}, "
                 "{SPLITS => ['row000300', 'row000600']}")

    def __init__(self, tools, work):
        super().__init__(tools, work, "create", files=1, cells=100)

    def record_originals(self):
        """{path relative to the root: sha256} of every file of t (the table n is made beside)."""
        originals = {}
        for dirpath, _, names in os.walk(os.path.join(self.template, "data/default/t")):
            for n in names:
                p = os.path.join(dirpath, n)
                originals[os.path.relpath(p, self.template)] = sha256(p)
        return originals

    def table(self, root):
        return os.path.join(root, "data/default/n")

    def argv(self, root):
        return [self.t.path("hfile-create"), "--now", NOW_MS, root, self.STATEMENT]

    def snapshot(self, root):
        if not os.path.exists(self.table(root)):
            return {"families": None, "served": {}}
        return super().snapshot(root)

    def check_originals(self, root, fails):
        for rel, digest in self.originals.items():
            p = os.path.join(root, rel)
            if not os.path.exists(p) or sha256(p) != digest:
                fails.add("originals-intact", f"{rel} missing or changed")

    def check_served(self, root, fails):
        now = self.snapshot(root)
        if now not in (self.before, self.after):
            fails.add("no-partial-output", f"table n is there but not whole: families "
                                           f"{now['families']}, {len(now['served'])} stores")

    def stray(self, root):
        ns = os.path.join(root, "data/default")
        out = [n for n in os.listdir(ns) if n.startswith(".hfile-")]
        for dirpath, dirs, names in os.walk(root):
            for n in names:
                if re.match(TEMP_NAME, n) or n.endswith(".new"):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
        return sorted(set(out))

    def rerun_ok(self, rc, out, err, before_rerun):
        # The faulted run may have finished (an error in a best-effort cleanup after the
        # commit): the rerun then refuses the existing table (usage, 1).
        return rc == 0 or (rc == 1 and "already exists" in err and before_rerun == self.after)


class BulkLoadIntoScenario(TableTxnScenario):
    """hfile-bulkload --into of a generated TSV (families a and b) into the generator's table:
    one table transaction (staged files put into the region's family dirs). Its sort dir is
    under the fault prefix too."""

    def __init__(self, tools, work, lines=3000):
        self.input = os.path.join(work, "bulkload-into.tsv")
        with open(self.input, "w") as f:
            for i in range(lines):
                f.write(f"row{(i * 7919) % 2000:05d}\tia{i}\tib{i}\n")
        super().__init__(tools, work, "bulkload-into", files=2, cells=300)

    def layout(self, root):
        super().layout(root)
        os.makedirs(os.path.join(root, "tmp"), exist_ok=True)
        return root

    def argv(self, root):
        return [self.t.path("hfile-bulkload"), "--now", NOW_MS, "--no-progress", "--into",
                "--table", self.table(root), "--temp-dir", os.path.join(root, "tmp"),
                "--columns", "HBASE_ROW_KEY,a:q,b:q", self.input]

    def cases(self):
        # Family b's files and dirs go through the same calls as family a's: a's stand for both.
        return [c for c in super().cases()
                if not re.match(r"(family b dir|b/)", c.note or "")]

    def journal_state(self, root):
        try:
            with open(os.path.join(self.table(root), ".hfile-journal")) as f:
                return next((l.split()[1] for l in f if l.startswith("state ")), "?")
        except FileNotFoundError:
            return None

    def check_served(self, root, fails):
        # Between the commit record and the last put, some stores hold the load and others
        # not yet, as after a completebulkload that failed part way: allowed only while a
        # committed journal says that a rerun finishes it (each store then before or after).
        if self.journal_state(root) != "commit":
            return super().check_served(root, fails)
        now = self.served(root)
        for key, cells in now.items():
            if cells not in (self.after["served"].get(key, []), self.before["served"].get(key, [])):
                fails.add("no-partial-output", f"{key[0][:8]}/{key[1]} holds {len(cells)} cells, "
                                               "neither the state before nor after")

    def rerun_needed(self, root, before_rerun):
        # A run that finished (killed after its journal was removed) has loaded the lines; the
        # same command run again would load them once more (documented): nothing to finish.
        return before_rerun != self.after or self.journal_state(root) is not None

    def rerun_ok(self, rc, out, err, before_rerun):
        return rc == 0


def label(p):
    """What a path under a compaction root is, in a few words."""
    if not p:
        return ""
    if "/archive/" in p:
        rest = p.split("/archive/", 1)[1].split("/")
        if len(rest) <= 3:
            return "archive/" + "/".join(rest) + " dir"
        if len(rest) == 4:
            return "archive region dir"
        if len(rest) == 5:
            return f"archive {rest[4]} dir"
        return f"archive {rest[4]}/{rest[5][:8]}"
    rest = p.split("/data/default/t/", 1)[-1].split("/") if "/data/default/t/" in p else [p]
    if len(rest) == 1:
        return "region dir" if len(rest[0]) == 32 else os.path.basename(p)
    tail = rest[1:]
    if tail[0] == ".tmp":
        if len(tail) == 1:
            return ".tmp dir"
        n = tail[1]
        if n.startswith("hfile.journal"):
            return n[len("hfile."):]
        if n.startswith("hfile-"):  # a transaction's staging dir
            if len(tail) == 2:
                return "staging dir"
            n = tail[2]
        if re.match(TEMP_NAME, n):
            return "output temp"
        return ".tmp/output"
    if len(tail) == 1:
        return f"family {tail[0]} dir"
    return f"{tail[0]}/{tail[1][:8]}"


def short(p, p2):
    return label(p) + (" -> " + label(p2) if p2 else "")


# ------------------------------------------------------------------------------------------
# Real ENOSPC on a small tmpfs


# ------------------------------------------------------------------------------------------
# hfile-bulkload


class BulkLoadScenario:
    """hfile-bulkload of a generated TSV (families a and b of the generator's table) into OUT,
    with a 1 MiB sort budget so that runs spill into a temp dir: both under the fault prefix. A
    failed or killed run must leave OUT absent or complete; the rerun must produce the
    uninterrupted run's cells and leave no staging dir and no sort dir behind."""

    def __init__(self, tools, work, lines=12000):
        self.t = tools
        self.name = "bulkload"
        self.base = os.path.join(work, self.name)
        self.template = os.path.join(self.base, "template")
        rc, _, err = tools.run([tools.gen, "table", self.template, "1", "10"])
        if rc != 0:
            raise RuntimeError(f"hfk-fault-gen table: {err}")
        self.input = os.path.join(self.base, "in.tsv")
        with open(self.input, "w") as f:
            for i in range(lines):
                f.write(f"row{(i * 7919) % 5000:05d}\tva{i}-{'x' * (i % 50)}\tvb{i}\n")
        ref = self.layout(os.path.join(self.base, "ref"))
        rc, _, err = tools.run(self.argv(ref))
        if rc != 0:
            raise RuntimeError(f"bulkload: uninterrupted run exited {rc}: {err}")
        self.ref_cells, err = self.out_cells(ref)
        if err or not self.ref_cells:
            raise RuntimeError(f"bulkload: reading the uninterrupted output: {err}")

    def layout(self, d):
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(os.path.join(d, "tmp"))
        return d

    def argv(self, d):
        return [self.t.path("hfile-bulkload"), "--now", NOW_MS, "--no-progress",
                "--table", os.path.join(self.template, "data/default/t"),
                "--out", os.path.join(d, "out"), "--temp-dir", os.path.join(d, "tmp"),
                "--memory", "1M", "--columns", "HBASE_ROW_KEY,a:q,b:q", self.input]

    def out_cells(self, d):
        """{family: cells} of OUT, each file verified; (None, None) when OUT is absent."""
        out = os.path.join(d, "out")
        if not os.path.exists(out):
            return None, None
        cells = {}
        for fam in sorted(os.listdir(out)):
            for n in sorted(os.listdir(os.path.join(out, fam))):
                path = os.path.join(out, fam, n)
                rc, msg = self.t.verify(path)
                if rc != 0:
                    return None, f"{path} is not a complete HFile: hfile-verify exits {rc}: {msg}"
                c, err = self.t.cells([path])
                if err:
                    return None, err
                cells.setdefault(fam, []).extend(c)
        return cells, None

    def leftovers(self, d):
        staging = [n for n in os.listdir(d) if n.startswith(".out.hfile-bulkload-")]
        sort = [n for n in os.listdir(os.path.join(d, "tmp")) if n.startswith("hfile-sort-")]
        return staging + sort

    def label(self, path):
        if "/tmp/hfile-sort-" in path:
            return "sort run"
        if ".out.hfile-bulkload-" in path:
            return "staging"
        return "out" if path.endswith("/out") else os.path.basename(path)

    def count(self):
        d = self.layout(os.path.join(self.base, "count"))
        return traced_calls(self.t, self.name, self.argv(d), d, os.path.join(self.base, "trace"))

    def cases(self):
        calls = self.count()
        by_op = {}
        for c in calls:
            by_op.setdefault(c[0], []).append(c)
        cases = []
        for op in ("open_w", "fsync", "rename", "mkdir"):
            picks = by_op.get(op, [])
            if op == "open_w":  # many sort runs: the first, last and a few between
                keep = set(sample([c[2] for c in picks], 4))
                picks = [c for c in picks if c[2] in keep]
            for c in picks:
                note = self.label(c[3]) + (" -> " + self.label(c[4]) if c[4] else "")
                for a in ("EIO", "kill-before", "kill-after"):
                    cases.append(Case(self.name, op, c[2], a, note=note))
                if op == "open_w":
                    cases.append(Case(self.name, op, c[2], "ENOSPC", sticky=True, note=note))
        for op in ("write", "writev", "pwrite"):
            for n in sample([c[2] for c in by_op.get(op, [])], 4):
                for a in ("EIO", "kill-before"):
                    cases.append(Case(self.name, op, n, a, note="write"))
                cases.append(Case(self.name, op, n, "ENOSPC", sticky=True, note="write"))
                cases.append(Case(self.name, op, n, "short", note="write"))
        preads = [c[2] for c in by_op.get("pread", [])] + [c[2] for c in by_op.get("read", [])]
        for n in sample(preads, 3):
            cases.append(Case(self.name, "pread" if n in [c[2] for c in by_op.get("pread", [])]
                              else "read", n, "EIO", note="reading back"))
        writes = [c[2] for c in by_op.get("write", [])]
        if writes:
            cases.append(Case(self.name, "write", writes[len(writes) // 2], "kill-before",
                              signal_no=signal.SIGTERM, note="write"))
        return cases

    def repro(self, case, d):
        e = case.env(self.t.shim, d, "stderr")
        return " ".join(f"{k}={shlex.quote(v)}" for k, v in e.items()) + " " + \
            " ".join(shlex.quote(a) for a in self.argv(d))

    def run_case(self, case, idx):
        d = self.layout(os.path.join(self.base, f"c{idx}"))
        log = os.path.join(self.base, f"c{idx}.log")
        fails = Failures()
        rc, _, err = self.t.run(self.argv(d), case.env(self.t.shim, d, log))
        fired = os.path.exists(log) and os.path.getsize(log) > 0
        if not fired:
            fails.add("fault-fired", "the fault point was not reached (nondeterministic calls?)")
        else:
            expect_exit(case, rc, err, fails)
        # OUT is absent or complete: never part of a result.
        cells, cerr = self.out_cells(d)
        if cerr or (cells is not None and cells != self.ref_cells):
            fails.add("no-partial-output", cerr or f"OUT holds {sum(map(len, cells.values()))} "
                      f"cells, not the uninterrupted run's")
        if rc == 0 and cells is None:
            fails.add("no-partial-output", "exit 0 but OUT does not exist")
        left = self.leftovers(d)
        if left and rc != 0 and not (case.kill and case.signal == 9):
            why = "after SIGTERM" if case.kill else f"after the {case.action} error"
            fails.add("temp-cleanup", f"{why}: left {', '.join(left)}")
        # The rerun (unless OUT was already published) produces OUT and cleans up.
        if cells is None:
            rc2, _, err2 = self.t.run(self.argv(d))
            if rc2 != 0:
                fails.add("rerun-exit", f"rerun exited {rc2}: {err2.strip()[:240]}")
            else:
                cells2, cerr2 = self.out_cells(d)
                if cerr2 or cells2 != self.ref_cells:
                    fails.add("rerun-cells", cerr2 or "the rerun's OUT differs from the "
                              "uninterrupted run's")
            left = self.leftovers(d)
            if left:
                fails.add("rerun-stale-temp", f"after the rerun: {', '.join(left)}")
        return fails, self.repro(case, d)


def tmpfs_cases(tools, work, big, results, verbose):
    name = "enospc-tmpfs rewrite --compression NONE (2 MiB tmpfs)"
    if os.geteuid() != 0:
        print(f"SKIP {name}: not root, cannot mount a tmpfs", flush=True)
        return
    mnt = os.path.join(work, "tmpfs")
    os.makedirs(mnt)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f"SKIP {name}: mount not permitted: {p.stdout.decode().strip()}", flush=True)
        return
    try:
        before = sha256(big)
        out = os.path.join(mnt, "out.hfile")
        argv = [tools.path("hfile-rewrite"), "--compression", "NONE", big, out]
        rc, _, err = tools.run(argv)
        fails = Failures()
        if rc != 3:
            fails.add("exit-code", f"expected 3, got {rc}: {err.strip()[:240]}")
        if "out.hfile" not in err or STRERROR["ENOSPC"] not in err:
            fails.add("error-message", f"stderr should name out.hfile and say "
                                       f"\"{STRERROR['ENOSPC']}\": {err.strip()[:240]}")
        left = os.listdir(mnt)
        if left:
            fails.add("temp-cleanup", f"left {left} on the full file system")
        if sha256(big) != before:
            fails.add("input-intact", f"{big} changed")
        results.append((name, fails, "mount -t tmpfs -o size=2m tmpfs /mnt/t && " +
                        " ".join(shlex.quote(a) for a in argv[:-1]) + " /mnt/t/out.hfile"))
        report(name, fails, results[-1][2], verbose)
    finally:
        subprocess.run(["umount", mnt])


def tmpfs_compact_case(tools, work, scenario, results):
    """hfile-compact on a tmpfs just large enough for the table: the output cannot fit."""
    name = "enospc-tmpfs compact (tmpfs = table + 256 KiB)"
    if os.geteuid() != 0:
        print(f"SKIP {name}: not root, cannot mount a tmpfs", flush=True)
        return
    mnt = os.path.join(work, "tmpfs-compact")
    os.makedirs(mnt)
    used = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(scenario.template)
               for n in ns)
    size_k = (used + 4096 * 64) // 1024 + 256
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_k}k", "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f"SKIP {name}: mount not permitted: {p.stdout.decode().strip()}", flush=True)
        return
    try:
        root = os.path.join(mnt, "root")
        shutil.copytree(scenario.template, root)
        fails = Failures()
        rc, out, err = tools.run(scenario.argv(root))
        if rc != 3:
            fails.add("exit-code", f"expected 3, got {rc}: {(err.strip() or out.strip())[-240:]}")
        if STRERROR["ENOSPC"] not in err:
            fails.add("error-message", f"stderr should say \"{STRERROR['ENOSPC']}\": {err.strip()[:240]}")
        scenario.check_store_state(root, fails, after_rerun=False)
        strays = scenario.stray_temps(root) + [".tmp/" + n for n in scenario.tmp_entries(root)
                                               if n.startswith(".")]
        if strays:
            fails.add("temp-cleanup", f"after the real ENOSPC: left {', '.join(strays)}")
        subprocess.run(["mount", "-o", f"remount,size={size_k * 4}k", mnt])
        rc2, out2, err2 = tools.run(scenario.argv(root))
        if rc2 != 0:
            fails.add("rerun-exit", f"rerun with room exited {rc2}: {(err2.strip() or out2.strip())[-240:]}")
        else:
            scenario.check_store_state(root, fails, after_rerun=True)
            cells, e = tools.cells(["--table", scenario.table(root)])
            if cells != scenario.ref_table:
                fails.add("rerun-cells", f"table holds {len(cells or [])} cells after the rerun, "
                                         f"the uninterrupted run {len(scenario.ref_table)} {e or ''}")
        repro = (f"mount -t tmpfs -o size={size_k}k tmpfs /mnt/t && cp -a TABLE_ROOT /mnt/t/root && " +
                 " ".join(shlex.quote(a) for a in scenario.argv("/mnt/t/root")))
        results.append((name, fails, repro))
        report(name, fails, repro, True)
    finally:
        subprocess.run(["umount", mnt])


def report(name, fails, repro, verbose):
    if not fails:
        print(f"PASS {name}", flush=True)
        return
    print(f"FAIL {name}", flush=True)
    for inv, detail in fails.items:
        print(f"     [{inv}] {detail}", flush=True)
    print(f"     repro: {repro}", flush=True)
    print(f"     (inputs kept with: run_faults.py ... --keep --only {shlex.quote('^' + re.escape(name) + '$')})",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory with hfile-rewrite, hfile-compact, ...")
    ap.add_argument("--shim", required=True, help="libhfk_fault_shim.so")
    ap.add_argument("--gen", required=True, help="hfk-fault-gen")
    ap.add_argument("--only", help="run only the cases whose name matches this regex")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--work", help="work directory (default: a new temporary one)")
    ap.add_argument("--cells", type=int, default=12000, help="cells of the rewrite input")
    args = ap.parse_args()
    t0 = time.time()
    tools = Tools(args.bin, os.path.abspath(args.shim), os.path.abspath(args.gen))
    for tool in ("hfile-rewrite", "hfile-compact", "hfile-alter", "hfile-copy-family",
                 "hfile-split", "hfile-bulkload", "hfile-create", "hfile-dump", "hfile-verify"):
        if not os.access(tools.path(tool), os.X_OK):
            print(f"missing {tools.path(tool)}: build it first", file=sys.stderr)
            return 2
    work = args.work or tempfile.mkdtemp(prefix="hfk-faults-")
    os.makedirs(work, exist_ok=True)
    results = []
    try:
        # Inputs: a big NONE file from the generator (64 KiB blocks), rewritten by hfile-rewrite
        # with 4 KiB blocks into the many-block input the rewrite scenarios use.
        big = os.path.join(work, "big.hfile")
        rc, _, err = tools.run([tools.gen, "hfile", big, "30000", "100"])
        if rc != 0:
            print(f"hfk-fault-gen hfile: {err}", file=sys.stderr)
            return 2
        src = os.path.join(work, "source.hfile")
        prev = os.path.join(work, "previous.hfile")
        tools.run([tools.gen, "hfile", prev, "500", "50"])
        small = os.path.join(work, "small.hfile")
        rc, _, err = tools.run([tools.gen, "hfile", small, str(args.cells), "100"])
        rc2, _, err2 = tools.run([tools.path("hfile-rewrite"), "--blocksize", "4096", small, src])
        if rc or rc2:
            print(f"making the rewrite input failed: {err}{err2}", file=sys.stderr)
            return 2
        print(f"inputs: {big} ({os.path.getsize(big)} bytes), {src} ({os.path.getsize(src)} bytes, "
              f"4 KiB blocks)", flush=True)
        scenarios = [RewriteScenario(tools, work, src),
                     RewriteScenario(tools, work, src, "existing", previous=prev),
                     RewriteScenario(tools, work, src, "inplace"),
                     OutDirScenario(tools, work, src, prev),
                     CompactScenario(tools, work),
                     CompactScenario(tools, work, delete_replaced=True),
                     CompactScenario(tools, work, crash="committed"),
                     CompactScenario(tools, work, crash="uncommitted"),
                     AlterScenario(tools, work),
                     CopyFamilyScenario(tools, work),
                     SplitScenario(tools, work),
                     BulkLoadScenario(tools, work),
                     BulkLoadIntoScenario(tools, work),
                     CreateScenario(tools, work)]
        all_cases = []
        for s in scenarios:
            for c in s.cases():
                all_cases.append((s, c))
        if args.only:
            all_cases = [(s, c) for s, c in all_cases if re.search(args.only, c.name)]
        if args.list:
            for _, c in all_cases:
                print(c.name)
            return 0
        for i, (s, c) in enumerate(all_cases):
            fails, repro = s.run_case(c, i)
            results.append((c.name, fails, repro))
            report(c.name, fails, repro, True)
            if args.keep:  # leave the case's inputs as they were before, for its repro line
                s.layout(os.path.join(s.base, f"c{i}"))
            else:
                shutil.rmtree(os.path.join(s.base, f"c{i}"), ignore_errors=True)
        if not args.only or re.search(args.only, "enospc-tmpfs rewrite"):
            tmpfs_cases(tools, work, big, results, True)
        if not args.only or re.search(args.only, "enospc-tmpfs compact"):
            tmpfs_compact_case(tools, work, scenarios[4], results)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"work directory kept: {work}")
    failed = sum(1 for _, f, _ in results if f)
    by_inv = {}
    for _, f, _ in results:
        for inv in {i for i, _ in f.items}:
            by_inv[inv] = by_inv.get(inv, 0) + 1
    if by_inv:
        print("failed invariants: " + ", ".join(f"{k} {v}" for k, v in sorted(by_inv.items())))
    print(f"time: {time.time() - t0:.1f} s")
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
