#!/usr/bin/env python3
"""Runs the command-line cases in tests/cli/cases/*.txt against the built tools.

usage: run_cases.py BIN_DIR CASES_DIR TESTDATA_DIR SHARED_DIR VERSION [FILTER]

Each case is a block of "key: value" lines; a blank line or the next "case:" ends it, "#" starts
a comment line:

  case: dump: not an HFile (PNG)      the case's name
  needs: shared                       optional: skipped, loudly, when SHARED_DIR is absent
  setup: cp "$GOOD" in.hfile          optional, repeatable: a bash line run in $TMP first
  env: NAME=VALUE                     optional, repeatable: set in the run's environment
  run: hfile-dump -m $PNG             the command line (shlex-split, no shell); the program is
                                      looked up in BIN_DIR
  exit: 3                             the expected exit status
  stdout: REGEX                       optional, repeatable: must match stdout (re.search, MULTILINE)
  stderr: REGEX                       optional, repeatable: must match stderr
  no-stdout: REGEX                    optional, repeatable: must not match stdout
  stderr-empty: yes                   optional: stderr must be empty
  check: test -z "$(ls out)"          optional, repeatable: a bash line run in $TMP afterwards;
                                      it must exit 0 (e.g. nothing was written)

Variables ($NAME or ${NAME}) in setup, run and patterns: TMP (a fresh directory per case, also
the working directory), BIN, TESTDATA, SHARED, VERSION, SRC (the source tree), MISSING ($TMP/no-such-file), and the
inputs made once per run: PNG (a 1x1 PNG), EMPTY (0 bytes), RANDOM (64 KiB of seeded random
bytes), SHORT (10 bytes of text), GOOD (testdata/hbase/none-diff-row-crc32c-notags.hfile),
TRUNCATED (GOOD without its last 100 bytes), FLIPPED (GOOD with one data block byte flipped).
In patterns, variable values are regex-escaped.
"""
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# The smallest PNG: signature, IHDR 1x1 greyscale, IDAT, IEND.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b55"
    "0000000a4944415478da63600000000200017e2c6b2d0000000049454e44ae426082")

KEYS = {"case", "needs", "setup", "env", "run", "exit", "stdout", "stderr", "no-stdout",
        "stderr-empty", "check"}
LISTS = ("setup", "env", "stdout", "stderr", "no-stdout", "check")
VAR = re.compile(r"\$(\w+)|\$\{(\w+)\}")


def parse_cases(path):
    cases, cur = [], None
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                cur = None
                continue
            if line.lstrip().startswith("#"):
                continue
            key, sep, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if not sep or key not in KEYS:
                sys.exit(f"{path}:{lineno}: expected 'key: value' with key in {sorted(KEYS)}")
            if key == "case":
                cur = {"name": value, "where": f"{os.path.basename(path)}:{lineno}",
                       **{k: [] for k in LISTS}}
                cases.append(cur)
                continue
            if cur is None:
                sys.exit(f"{path}:{lineno}: '{key}:' outside a case (start one with 'case:')")
            if key in LISTS:
                cur[key].append(value)
            else:
                cur[key] = value
    for c in cases:
        if "run" not in c or "exit" not in c:
            sys.exit(f"{c['where']}: case '{c['name']}' needs 'run:' and 'exit:'")
    return cases


def expand(text, env, escape=False):
    def sub(m):
        name = m.group(1) or m.group(2)
        if name not in env:
            raise KeyError(f"unknown variable ${name}")
        return re.escape(env[name]) if escape else env[name]
    return VAR.sub(sub, text)


def make_inputs(d, testdata):
    good = os.path.join(testdata, "hbase", "none-diff-row-crc32c-notags.hfile")
    data = open(good, "rb").read()
    files = {
        "PNG": PNG,
        "EMPTY": b"",
        "RANDOM": random.Random(10).randbytes(64 << 10),
        "SHORT": b"not hfile\n",
        "TRUNCATED": data[:-100],
        # Inside the first data block (offset 0, 33-byte header): its checksum no longer matches.
        "FLIPPED": data[:100] + bytes([data[100] ^ 1]) + data[101:],
    }
    env = {"GOOD": good}
    for name, content in files.items():
        path = os.path.join(d, name.lower() + (".png" if name == "PNG" else ".hfile"))
        with open(path, "wb") as f:
            f.write(content)
        env[name] = path
    return env


def main():
    bin_dir, cases_dir, testdata, shared = (os.path.abspath(a) for a in sys.argv[1:5])
    version = sys.argv[5]
    only = sys.argv[6] if len(sys.argv) > 6 else ""
    have_shared = os.path.isdir(os.path.join(shared, "testdata"))
    root = tempfile.mkdtemp(prefix="hfile-cli-cases-")
    failures, passed, skipped = [], 0, []
    try:
        inputs = os.path.join(root, "inputs")
        os.mkdir(inputs)
        src = os.path.dirname(os.path.dirname(os.path.dirname(cases_dir)))  # tests/cli/cases
        base = {"BIN": bin_dir, "TESTDATA": testdata, "SHARED": shared, "VERSION": version,
                "SRC": src}
        base.update(make_inputs(inputs, testdata))
        files = sorted(f for f in os.listdir(cases_dir) if f.endswith(".txt"))
        n = 0
        for name in files:
            for c in parse_cases(os.path.join(cases_dir, name)):
                if only and only not in c["name"]:
                    continue
                n += 1
                label = f"{c['where']}: {c['name']}"
                if c.get("needs") == "shared" and not have_shared:
                    skipped.append(label)
                    continue
                tmp = os.path.join(root, f"case{n}")
                os.mkdir(tmp)
                env = dict(base, TMP=tmp, MISSING=os.path.join(tmp, "no-such-file"))
                problems = run_case(c, env, bin_dir, tmp)
                if problems:
                    failures.append((label, problems))
                else:
                    passed += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for label in skipped:
        print(f"SKIPPED LOUDLY: {label}: {shared}/testdata is absent; this case was NOT run")
    for label, problems in failures:
        print(f"FAIL: {label}")
        for p in problems:
            print("    " + p.replace("\n", "\n    "))
    print(f"{passed} passed, {len(failures)} failed, {len(skipped)} skipped")
    return 1 if failures else 0


def run_case(c, env, bin_dir, tmp):
    # The tools under test are on PATH for setup and check lines too.
    shell_env = dict(os.environ, **env)
    shell_env["PATH"] = bin_dir + os.pathsep + shell_env.get("PATH", "")
    for line in c["setup"]:
        r = subprocess.run(["bash", "-c", "set -e; " + line], cwd=tmp, env=shell_env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return [f"setup failed ({r.returncode}): {line}\n{r.stderr}"]
    argv = shlex.split(expand(c["run"], env))
    prog = os.path.join(bin_dir, argv[0])
    if not os.path.exists(prog):
        return [f"no program {prog}"]
    try:
        run_env = dict(os.environ, **dict(e.split("=", 1) for e in c["env"]))
        r = subprocess.run([prog] + argv[1:], cwd=tmp, env=run_env, capture_output=True,
                           timeout=120)
    except subprocess.TimeoutExpired:
        return [f"timed out: {shlex.join(argv)}"]
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace")
    problems = []
    if r.returncode != int(c["exit"]):
        problems.append(f"exit {r.returncode}, expected {c['exit']}")
    for stream, text in (("stdout", out), ("stderr", err)):
        for pat in c[stream]:
            if not re.search(expand(pat, env, escape=True), text, re.MULTILINE):
                problems.append(f"{stream} does not match /{pat}/")
    for pat in c["no-stdout"]:
        if re.search(expand(pat, env, escape=True), out, re.MULTILINE):
            problems.append(f"stdout matches /{pat}/, which it must not")
    if c.get("stderr-empty") == "yes" and err:
        problems.append("stderr is not empty")
    for line in c["check"]:
        r = subprocess.run(["bash", "-c", line], cwd=tmp, env=shell_env, capture_output=True,
                           text=True)
        if r.returncode != 0:
            problems.append(f"check failed ({r.returncode}): {line}\n{r.stdout}{r.stderr}")
    if problems:
        problems.insert(0, "$ " + shlex.join(argv))
        problems.append("stdout:\n" + out[-2000:] + "stderr:\n" + err[-2000:])
    return problems


if __name__ == "__main__":
    sys.exit(main())
